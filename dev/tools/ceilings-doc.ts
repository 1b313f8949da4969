/**
 * Writes docs/configuration.md's table of ceilings from core/ceilings/ceilings.ts (between its
 * `ceilings:start` / `ceilings:end` markers, nothing else of the file): `npm run docs:ceilings`.
 * test/unit/ceilings-doc.test.ts fails while the doc says something else.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { withCeilingsSection } from "../../core/ceilings/ceilings-doc.ts";

export const CONFIGURATION_DOC = join(import.meta.dir, "..", "..", "docs", "configuration.md");

if (import.meta.main) {
  const doc = await readFile(CONFIGURATION_DOC, "utf8");
  const written = withCeilingsSection(doc);
  if (written === undefined) throw new Error(`${CONFIGURATION_DOC} has no ceilings markers`);
  await writeFile(CONFIGURATION_DOC, written);
  console.log(
    written === doc
      ? "docs/configuration.md: ceilings already current"
      : "docs/configuration.md: ceilings written",
  );
}
