/** The operator's "Sites" section: one row per hosted site, today's figures and its index. */

import type { SiteSummary } from "../../../core/insights/sites-summary.ts";
import { h } from "../../browser/dom.ts";
import { table, when } from "./tables.ts";

const indexText = (index: SiteSummary["index"]) => {
  const figures = [
    index.chunks === null ? undefined : `${index.chunks} chunks`,
    index.bytes === null ? undefined : `${Math.ceil(index.bytes / 1024)} KiB`,
  ].filter((part) => part !== undefined);
  return h(
    "div",
    {},
    figures.length === 0 ? index.state : `${index.state}, ${figures.join(", ")}`,
    h("small", {}, index.where),
  );
};

const syncText = (sync: SiteSummary["lastSync"]) =>
  sync === null ? "-" : `${when(sync.at)} ${sync.ok ? `(${sync.pages} pages)` : "(failed)"}`;

export const sitesSection = (sites: ReadonlyArray<SiteSummary>): Node =>
  h(
    "section",
    { id: "sites" },
    h("h2", {}, "Sites"),
    h(
      "p",
      { class: "note" },
      "The sites hosted beside this one, today (UTC); each site's own console is at /sites/<id>/admin.",
    ),
    table(
      ["Site", "Questions", "Answered", "Revenue (USDC)", "Price", "Index", "Last sync (UTC)"],
      sites.map((site) => [
        h("div", {}, site.id, h("small", {}, site.title ?? site.docs)),
        site.today === null ? "?" : site.today.questions,
        site.today === null ? "?" : site.today.answered,
        site.today === null ? "?" : site.today.revenueUsdc,
        site.price.usdc,
        indexText(site.index),
        syncText(site.lastSync),
      ]),
      "No hosted sites.",
      [1, 2, 3, 4],
      [4, 6],
    ),
  );
