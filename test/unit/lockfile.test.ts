/**
 * package-lock.json records every platform's optional package, so `npm ci` accepts it on any
 * machine (dev/tools/complete-lockfile.ts explains why a mirror can leave some out).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  completeLockfile,
  type Lockfile,
  missingOptional,
  platformOf,
} from "../../dev/tools/complete-lockfile.ts";
import { REPO_ROOT } from "../support/service-process.ts";

const lock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as Lockfile;

describe("package-lock.json", () => {
  test("every optional package a dependency names has an entry (npm ci refuses the lock otherwise)", () => {
    expect(missingOptional(lock)).toEqual([]);
  });

  test("the platform entries it needed are there, for other machines than this one", () => {
    expect(lock.packages["node_modules/@biomejs/cli-darwin-arm64"]).toMatchObject({
      os: ["darwin"],
      cpu: ["arm64"],
    });
    expect(lock.packages["node_modules/@deno/win32-x64"]).toMatchObject({ os: ["win32"], cpu: ["x64"] });
    expect(lock.packages["node_modules/litesvm-linux-x64-musl"]).toMatchObject({ libc: ["musl"] });
  });
});

describe("completing a lock", () => {
  const partial: Lockfile = {
    lockfileVersion: 3,
    packages: {
      "": { name: "x" },
      "node_modules/tool": {
        version: "2.0.0",
        dev: true,
        optionalDependencies: { "tool-linux-x64-gnu": "2.0.0", "tool-darwin-arm64": "2.0.0" },
      },
      "node_modules/tool-linux-x64-gnu": { version: "2.0.0", os: ["linux"], cpu: ["x64"], optional: true },
    },
  };

  test("adds the missing platform at the pinned version, dev like its parent, and nothing else", () => {
    const completed = completeLockfile(partial);
    expect(completed.packages["node_modules/tool-darwin-arm64"]).toEqual({
      version: "2.0.0",
      os: ["darwin"],
      cpu: ["arm64"],
      dev: true,
      optional: true,
    });
    expect(Object.keys(completed.packages)).toEqual([
      "",
      "node_modules/tool",
      "node_modules/tool-darwin-arm64",
      "node_modules/tool-linux-x64-gnu",
    ]);
    expect(missingOptional(completed)).toEqual([]);
  });

  test("a name that spells no platform is refused rather than guessed", () => {
    const odd: Lockfile = {
      packages: { "node_modules/a": { version: "1.0.0", optionalDependencies: { bufferutil: "4.0.0" } } },
    };
    expect(() => completeLockfile(odd)).toThrow("cannot tell the platform of bufferutil");
  });

  test.each([
    ["@biomejs/cli-linux-arm64-musl", { os: ["linux"], cpu: ["arm64"], libc: ["musl"] }],
    ["@deno/linux-x64-glibc", { os: ["linux"], cpu: ["x64"], libc: ["glibc"] }],
    ["@biomejs/cli-android-x64", { os: ["android"], cpu: ["x64"] }],
    ["litesvm-win32-x64-msvc", { os: ["win32"], cpu: ["x64"] }],
    ["left-pad", undefined],
  ])("platformOf(%s)", (name, expected) => {
    expect(platformOf(name)).toEqual(expected);
  });
});

describe("engines", () => {
  test("the lowest Node our engines range allows satisfies every dependency's engines range", () => {
    const ours = (lock.packages[""] as { engines?: { node?: string } }).engines?.node ?? "";
    // Our range is a plain lower bound, so its lowest version is the bound itself.
    const lowest = /^>=(\d+\.\d+\.\d+)$/.exec(ours)?.[1] ?? "";
    const unmet = Object.entries(lock.packages).filter(([, entry]) => {
      const range = (entry.engines as { node?: string } | undefined)?.node;
      return range !== undefined && !Bun.semver.satisfies(lowest, range);
    });
    expect(lowest).not.toBe("");
    expect(unmet.map(([path]) => path)).toEqual([]);
  });
});
