/**
 * kit parses every JSON integer of a reply as a bigint. The core schemas speak JSON numbers, so
 * bigints become numbers where that is exact; an unsafe one stays a bigint and then fails the
 * schema (a malformed reply), rather than being rounded into a wrong amount.
 */

/** A copy of `value` with safe-integer bigints turned into numbers. */
export const toPlainJson = (value: unknown, depth = 0): unknown => {
  if (depth > 64) return value;
  if (typeof value === "bigint") {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value;
  }
  if (Array.isArray(value)) return value.map((item) => toPlainJson(item, depth + 1));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, toPlainJson(item, depth + 1)]),
    );
  }
  return value;
};
