/**
 * The PostgreSQL 15 HTML docs (DocBook) as a corpus for the crawler's tests and bench: Debian's
 * postgresql-doc-15, fetched with `apt-get download` and unpacked with `dpkg -x` (never
 * installed), its html/ folder copied to `dir`.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where the docs are unpacked unless told otherwise. */
export const DEFAULT_POSTGRES_DOCS_DIR = join(tmpdir(), "postgresql-15-html");

/** The folder of the PostgreSQL HTML docs, unpacked into `dir` unless already there. */
export const ensurePostgresDocs = (dir: string = DEFAULT_POSTGRES_DOCS_DIR): string => {
  if (existsSync(join(dir, "index.html")) && readdirSync(dir).length > 1000) return dir;
  const work = mkdtempSync(join(tmpdir(), "postgresql-doc-"));
  try {
    const run = (command: string, args: ReadonlyArray<string>) => {
      const result = spawnSync(command, args, { cwd: work, stdio: "ignore" });
      if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status})`);
    };
    run("apt-get", ["download", "postgresql-doc-15"]);
    const deb = readdirSync(work).find(
      (name) => name.startsWith("postgresql-doc-15_") && name.endsWith(".deb"),
    );
    if (deb === undefined) throw new Error("apt-get download postgresql-doc-15 gave no .deb");
    run("dpkg", ["-x", deb, "extracted"]);
    cpSync(join(work, "extracted/usr/share/doc/postgresql-doc-15/html"), dir, {
      recursive: true,
      dereference: true,
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dir;
};
