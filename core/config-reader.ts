/** Reads environment variables while collecting every problem, so all are reported at once. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Collects problems while reading variables, so all of them are reported at once. */
export const reader = (env: Env) => {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const value = text(name);
    if (value === undefined) return fallback;
    const n = Number(value);
    if (/^\d+$/.test(value) && n >= min && n <= max) return n;
    problems.push(`${name}: must be a whole number from ${min} to ${max} (got "${value}")`);
    return fallback;
  };
  const flag = (name: string): boolean => {
    const value = text(name)?.toLowerCase();
    if (value === undefined || value === "false" || value === "0") return false;
    if (value === "true" || value === "1") return true;
    problems.push(`${name}: must be true or false (got "${value}")`);
    return false;
  };
  const url = (name: string, secret = false): string | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    if (URL.canParse(value)) return value;
    problems.push(
      secret ? `${name}: is not a valid URL (value hidden)` : `${name}: is not a valid URL (got "${value}")`,
    );
    return undefined;
  };
  return { problems, text, integer, flag, url };
};

export type Reader = ReturnType<typeof reader>;
