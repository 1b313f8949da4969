/**
 * docs/widget.md states the bundles' sizes the build makes: the bundles are built (into a
 * temporary folder) and the doc's section must equal what dev/tools/bundle-sizes.ts renders from
 * them. A change to the widget's code or its libraries fails here until
 * `bun dev/tools/bundle-sizes.ts --write` is run.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { measureBundles, SIZES_DOC, sectionIn, sizesSection } from "../../dev/tools/bundle-sizes.ts";

describe("docs/widget.md's bundle sizes", () => {
  test("are the build's", async () => {
    const section = sectionIn(readFileSync(SIZES_DOC, "utf8"));
    expect(section, "docs/widget.md lost its bundle-sizes markers").toBeDefined();
    expect(section).toBe(sizesSection(await measureBundles()));
  });

  test("no other page states a bundle's size in KiB", () => {
    for (const page of ["docs/insights.md", "docs/architecture.md", "README.md"]) {
      const text = readFileSync(new URL(`../../${page}`, import.meta.url), "utf8");
      expect(text, page).not.toMatch(/(widget|widget-pay|admin)\.js`?\s*\(?[\d.]+ KiB/);
    }
  });
});
