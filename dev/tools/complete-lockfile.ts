/**
 * `bun dev/tools/complete-lockfile.ts [--check]`: records every platform's optional package in
 * package-lock.json.
 *
 * Why: `npm install` writes a lock entry only for the optional packages its registry could
 * resolve. A registry mirror that lacks some platforms' builds (Biome, Deno and LiteSVM ship
 * one package per OS and CPU) leaves them out, and `npm ci` then refuses the lock on every
 * machine ("Missing: @biomejs/cli-darwin-arm64@ from lock file"). The missing entries name the
 * version the parent pins and the platform its name spells (os/cpu/libc), so npm skips them on
 * other platforms without fetching anything and fetches them, by name and version, where they
 * apply. Run it after `npm install` changes the lock; `--check` (used by the tests) only lists
 * what is missing and exits 1 if anything is.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface LockEntry {
  readonly version?: string;
  readonly dev?: boolean;
  readonly optional?: boolean;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly [field: string]: unknown;
}

export interface Lockfile {
  readonly packages: Record<string, LockEntry>;
  readonly [field: string]: unknown;
}

const OS_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/android/, "android"],
  [/darwin|macos/, "darwin"],
  [/win32|windows/, "win32"],
  [/freebsd/, "freebsd"],
  [/linux/, "linux"],
];
const CPU_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/arm64|aarch64/, "arm64"],
  [/x64|x86_64|amd64/, "x64"],
  [/ia32/, "ia32"],
];

/** os/cpu/libc of a platform package, read from its name; undefined when the name does not say. */
export const platformOf = (name: string) => {
  const os = OS_WORDS.find(([word]) => word.test(name))?.[1];
  const cpu = CPU_WORDS.find(([word]) => word.test(name))?.[1];
  if (os === undefined || cpu === undefined) return undefined;
  const libc = os !== "linux" ? undefined : /musl/.test(name) ? "musl" : "glibc";
  return { cpu: [cpu], ...(libc === undefined ? {} : { libc: [libc] }), os: [os] };
};

/** Optional dependencies some lock entry names that have no entry of their own: [parent path, name, version]. */
export const missingOptional = (lock: Lockfile): Array<readonly [string, string, string]> =>
  Object.entries(lock.packages).flatMap(([path, entry]) =>
    Object.entries(entry.optionalDependencies ?? {})
      .filter(
        ([name]) =>
          !(`node_modules/${name}` in lock.packages || `${path}/node_modules/${name}` in lock.packages),
      )
      .map(([name, version]) => [path, name, version] as const),
  );

/** The lock with an entry added for each missing optional package; throws for a name that spells no platform. */
export const completeLockfile = (lock: Lockfile): Lockfile => {
  const packages = { ...lock.packages };
  for (const [parent, name, version] of missingOptional(lock)) {
    const platform = platformOf(name);
    if (platform === undefined)
      throw new Error(`cannot tell the platform of ${name} (optional in ${parent})`);
    const dev = lock.packages[parent]?.dev === true;
    const { cpu, os } = platform;
    // Fields in npm's own order, so a later `npm install` rewrites nothing.
    packages[`node_modules/${name}`] = {
      version,
      cpu,
      ...(dev ? { dev: true } : {}),
      ...("libc" in platform ? { libc: platform.libc } : {}),
      optional: true,
      os,
    };
  }
  const sorted = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
  );
  return { ...lock, packages: sorted };
};

if (import.meta.main) {
  const path = join(import.meta.dir, "..", "..", "package-lock.json");
  const lock = JSON.parse(readFileSync(path, "utf8")) as Lockfile;
  const missing = missingOptional(lock);
  for (const [parent, name, version] of missing)
    console.log(`missing ${name}@${version} (optional in ${parent})`);
  if (process.argv.includes("--check")) process.exit(missing.length === 0 ? 0 : 1);
  writeFileSync(path, `${JSON.stringify(completeLockfile(lock), null, 2)}\n`);
  console.log(`package-lock.json: ${missing.length} entries added`);
}
