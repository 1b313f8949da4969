/**
 * SITES_FILE on disk (src/sites/sites-file.ts): JSON and YAML read alike, folders resolved
 * against the file's folder, unreadable or malformed files refused with the reason; and the
 * watcher, on real files in a temp folder, hands over a changed valid set, refuses a bad one
 * with one WARN naming every problem and keeps the old set, and survives the file vanishing.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Result from "effect/Result";
import type { SitesSet } from "../../core/config/config-site.ts";
import type { LogFields, Logger } from "../../src/observability/log.ts";
import {
  loadSitesFile,
  MAX_SITES_FILE_BYTES,
  type SitesFileWatch,
  watchSitesFile,
} from "../../src/sites/sites-file.ts";
import { waitFor } from "../support/free-port.ts";
import { REPO_ROOT } from "../support/service-process.ts";

const TOKEN = "acme-owner-token-0123456789";
const ENV = { ACME_OWNER_TOKEN: TOKEN, RATE_LIMIT_FREE_QUERIES: "5" };

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "sites-file-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const write = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};
const loaded = (path: string, env = ENV): SitesSet => {
  const result = loadSitesFile(path, env);
  if (Result.isFailure(result)) throw new Error(result.failure.message);
  return result.success;
};
const refusedWith = (path: string, env: Record<string, string> = ENV): ReadonlyArray<string> => {
  const result = loadSitesFile(path, env);
  if (Result.isSuccess(result)) throw new Error("expected a ConfigError");
  return result.failure.problems;
};

const JSON_FILE = JSON.stringify({
  sites: [
    { id: "acme", docs: "./docs/acme", price: "0.002", ownerTokenEnv: "ACME_OWNER_TOKEN" },
    { id: "bravo", docs: "https://docs.bravo.dev", questionsPerUsdc: 500, llm: false },
  ],
});
const YAML_FILE = `# two sites
sites:
  - id: acme
    docs: ./docs/acme
    price: "0.002"
    ownerTokenEnv: ACME_OWNER_TOKEN
  - id: bravo
    docs: https://docs.bravo.dev
    questionsPerUsdc: 500
    llm: false
`;

describe("loadSitesFile", () => {
  test("a site may not take the service's own host names (PUBLIC_ORIGIN's, ALLOWED_HOSTS, loopback)", () => {
    const path = write(
      "reserved.json",
      JSON.stringify({
        sites: [
          { id: "a", docs: "./a", hosts: ["chat.example.com"] },
          { id: "b", docs: "./b", hosts: ["internal.example:8080", "localhost"] },
          { id: "c", docs: "./c", hosts: ["docs.c.example"] },
        ],
      }),
    );
    const env = { ...ENV, PUBLIC_ORIGIN: "https://chat.example.com", ALLOWED_HOSTS: "internal.example" };
    const problems = refusedWith(path, env);
    expect(problems).toHaveLength(3);
    expect(problems.join("\n")).toContain(
      'sites[0].hosts: "chat.example.com" is the service\'s own host name',
    );
    expect(problems.join("\n")).toContain('sites[1].hosts: "internal.example:8080"');
    expect(problems.join("\n")).toContain('sites[1].hosts: "localhost"');
    expect(problems.join("\n")).not.toContain("docs.c.example");
  });

  test("JSON, .yaml and .yml give the same sites, folders made absolute against the file's folder", () => {
    const fromJson = loaded(write("sites.json", JSON_FILE));
    expect(loaded(write("sites.yaml", YAML_FILE))).toEqual(fromJson);
    expect(loaded(write("sites.YML", YAML_FILE))).toEqual(fromJson);
    const [acme, bravo] = fromJson.sites;
    expect(acme?.docs).toEqual({ kind: "folder", path: join(folder, "docs", "acme") });
    expect(acme?.ownerTokenSha256).toBe(createHash("sha256").update(TOKEN).digest("hex"));
    expect(acme?.unitsPerQuery).toBe(2000n);
    expect(acme?.freeQueries).toBe(5);
    expect(bravo?.docs).toEqual({ kind: "url", url: "https://docs.bravo.dev" });
    expect(bravo?.unitsPerQuery).toBe(2000n);
    expect(bravo?.llm).toBe(false);
  });

  test("a folder path given whole is kept, and a file in a subfolder resolves from there", () => {
    mkdirSync(join(folder, "conf"));
    const path = write(
      join("conf", "sites.json"),
      JSON.stringify({
        sites: [
          { id: "a", docs: "../docs" },
          { id: "b", docs: "/srv/docs/b" },
        ],
      }),
    );
    expect(loaded(path).sites.map((site) => site.docs)).toEqual([
      { kind: "folder", path: join(folder, "docs") },
      { kind: "folder", path: "/srv/docs/b" },
    ]);
  });

  test("a missing file, a folder, bad JSON, bad YAML and a file too large are refused with the reason", () => {
    expect(refusedWith(join(folder, "none.json"))).toEqual([
      `SITES_FILE: cannot read ${join(folder, "none.json")} (ENOENT)`,
    ]);
    expect(refusedWith(folder)[0]).toStartWith(`SITES_FILE: cannot read ${folder} (`);
    expect(refusedWith(write("bad.json", '{"sites": [x]}'))[0]).toStartWith("SITES_FILE: not valid JSON: ");
    expect(refusedWith(write("bad.yaml", "sites:\n  - id: a\n    id: b\n"))).toEqual([
      "SITES_FILE: not valid YAML: Map keys must be unique at line 3, column 5",
    ]);
    const huge = write("huge.json", " ".repeat(MAX_SITES_FILE_BYTES + 1));
    expect(refusedWith(huge)).toEqual([
      `SITES_FILE: ${huge} is larger than ${MAX_SITES_FILE_BYTES} bytes (${MAX_SITES_FILE_BYTES + 1})`,
    ]);
  });

  test("the service's own bad settings are named, since the sites take their defaults from them", () => {
    expect(refusedWith(write("sites.json", JSON_FILE), { RATE_LIMIT_FREE_QUERIES: "many" })).toEqual([
      'RATE_LIMIT_FREE_QUERIES: must be a whole number from 0 to 1000000 (got "many")',
    ]);
  });
});

describe("docs/configuration.md", () => {
  test("its JSON and YAML sites files are valid as written", () => {
    const section = readFileSync(join(REPO_ROOT, "docs", "configuration.md"), "utf8").split(
      "## Several docs sites",
    )[1];
    const block = (language: string) =>
      new RegExp(`\`\`\`${language}\n([\\s\\S]*?)\`\`\``).exec(section ?? "")?.[1];
    const json = block("json");
    const yaml = block("yaml");
    if (json === undefined || yaml === undefined) throw new Error("the section lost its examples");
    expect(loaded(write("sites.json", json)).sites.map((site) => site.id)).toEqual(["acme", "handbook"]);
    expect(loaded(write("sites.yaml", yaml)).sites.map((site) => site.id)).toEqual(["acme", "handbook"]);
  });
});

/** A logger that keeps its lines, so a test can wait for a WARN and read its fields. */
const keptLogger = () => {
  const lines: Array<{ level: string; msg: string; fields: LogFields | undefined }> = [];
  const at =
    (level: string) =>
    (msg: string, fields?: LogFields): void => {
      lines.push({ level, msg, fields });
    };
  const logger: Logger = { info: at("INFO"), warn: at("WARN"), error: at("ERROR") };
  return { logger, lines, warnings: () => lines.filter((line) => line.level === "WARN") };
};

describe("watchSitesFile", () => {
  let watch: SitesFileWatch | undefined;
  afterEach(() => watch?.stop());

  const WAIT_MS = 10_000;
  const idsOf = (set: SitesSet | undefined) => set?.sites.map((site) => site.id);

  test("a change is handed over; a bad one is refused with every problem and the old set kept", async () => {
    const path = write("sites.json", JSON_FILE);
    const changes: SitesSet[] = [];
    const { logger, warnings } = keptLogger();
    watch = watchSitesFile(path, ENV, {
      onChange: (set) => changes.push(set),
      logger,
      intervalMs: 20,
      current: loaded(path),
    });
    // The first look is at once: the file as already loaded is no change.
    expect(changes).toHaveLength(0);

    write(
      "sites.json",
      JSON.stringify({
        sites: [
          { id: "acme", docs: "./docs/acme" },
          { id: "charlie", docs: "./c" },
        ],
      }),
    );
    await waitFor(async () => changes.length === 1, WAIT_MS, "the changed sites");
    expect(idsOf(changes[0])).toEqual(["acme", "charlie"]);

    write(
      "sites.json",
      JSON.stringify({
        sites: [
          { id: "acme", docs: "./docs/acme", price: "free", ownerTokenEnv: "NOT_SET" },
          { id: "Delta" },
        ],
      }),
    );
    await waitFor(async () => warnings().length === 1, WAIT_MS, "the refusal");
    expect(warnings()[0]?.msg).toBe("sites file refused; the previous sites are kept");
    expect(warnings()[0]?.fields?.problems).toEqual([
      'SITES_FILE: sites[0].price: must be USDC per question, from 0.000001 to 1, like "0.002" (got "free")',
      // On a reload the variable is not read again from a shell: the text says what works instead.
      'SITES_FILE: sites[0].ownerTokenEnv: NOT_SET is not set in the service\'s environment (a variable exported after the start is not seen); give ownerTokenSha256 instead, the output of: printf %s "$NOT_SET" | sha256sum',
      'SITES_FILE: sites[1].id: must be 1 to 40 of a-z, 0-9 and - (got "Delta")',
      "SITES_FILE: sites[1].docs: required",
    ]);

    write("sites.json", JSON.stringify({ sites: [{ id: "echo", docs: "./e" }] }));
    await waitFor(async () => changes.length === 2, WAIT_MS, "the fixed sites");
    expect(idsOf(changes[1])).toEqual(["echo"]);
    // The bad file was warned about once, however many times it was looked at.
    expect(warnings()).toHaveLength(1);
  });

  test("without a current set the file's set is handed over at once", () => {
    const path = write("sites.yaml", YAML_FILE);
    const changes: SitesSet[] = [];
    watch = watchSitesFile(path, ENV, { onChange: (set) => changes.push(set), logger: keptLogger().logger });
    expect(changes.map(idsOf)).toEqual([["acme", "bravo"]]);
  });

  test("a vanished file keeps the old set with one WARN; when it comes back it is read again", async () => {
    const path = write("sites.json", JSON_FILE);
    const changes: SitesSet[] = [];
    const { logger, warnings } = keptLogger();
    watch = watchSitesFile(path, ENV, {
      onChange: (set) => changes.push(set),
      logger,
      intervalMs: 20,
      current: loaded(path),
    });
    unlinkSync(path);
    await waitFor(async () => warnings().length === 1, WAIT_MS, "the WARN of the vanished file");
    expect(warnings()[0]?.msg).toBe("sites file unreadable; the previous sites are kept");
    expect(warnings()[0]?.fields?.problems).toEqual([`SITES_FILE: cannot read ${path} (ENOENT)`]);
    write("sites.json", JSON.stringify({ sites: [{ id: "foxtrot", docs: "./f" }] }));
    await waitFor(async () => changes.length === 1, WAIT_MS, "the file back");
    expect(idsOf(changes[0])).toEqual(["foxtrot"]);
    expect(warnings()).toHaveLength(1);
  });

  test("the owner's token is in no log line, refused or loaded", async () => {
    const path = write("sites.json", JSON_FILE);
    const { logger, lines, warnings } = keptLogger();
    watch = watchSitesFile(path, ENV, { onChange: () => {}, logger, intervalMs: 20 });
    write("sites.json", JSON.stringify({ sites: [{ id: "acme", docs: "./a", ownerTokenEnv: TOKEN }] }));
    await waitFor(async () => warnings().length === 1, WAIT_MS, "the refusal");
    const written = JSON.stringify(lines);
    expect(written).not.toContain(TOKEN);
    expect(written).not.toContain(createHash("sha256").update(TOKEN).digest("hex"));
  });
});
