/**
 * The owner's console (/admin/console.js): a range form, export links and the report view.
 * The range lives in the page's query (?from&to), so a view can be bookmarked.
 */

import { h } from "../../browser/dom.ts";
import { consoleBase } from "./base.ts";
import { loadReport, loadSites, rangeQuery } from "./console-api.ts";
import { sitesSection } from "./sites-view.ts";
import { reportView } from "./view.ts";

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const start = async () => {
  const root = document.getElementById("console");
  const controls = document.getElementById("controls");
  if (root === null || controls === null) return;
  const params = new URLSearchParams(location.search);
  const to = params.get("to") ?? isoDay(Date.now());
  const from = params.get("from") ?? isoDay(Date.parse(to) - 29 * DAY_MS);
  const field = (name: string, value: string, label: string) =>
    h("label", {}, label, h("input", { type: "date", name, value, required: true }));
  const exportLink = (format: string) =>
    h(
      "a",
      {
        class: "button quiet",
        href: `${consoleBase()}/api/admin/export?${rangeQuery(from, to)}&format=${format}`,
      },
      format.toUpperCase(),
    );
  controls.replaceChildren(
    h(
      "form",
      { class: "range", method: "get", action: `${consoleBase()}/admin` },
      field("from", from, "From"),
      field("to", to, "To"),
      h("button", { type: "submit" }, "Show"),
      h("span", { class: "hide-narrow" }, "Export:"),
      exportLink("csv"),
      exportLink("json"),
    ),
  );
  const [loaded, sites] = await Promise.all([loadReport(from, to), loadSites()]);
  root.setAttribute("aria-busy", "false");
  if (loaded.ok)
    return root.replaceChildren(
      ...(sites === undefined ? [] : [sitesSection(sites)]),
      ...reportView(loaded.report),
    );
  // The session ended: the page itself shows the login form.
  if (loaded.status === 401) return location.reload();
  root.replaceChildren(
    h("p", { class: "error", role: "alert" }, `Could not load the insights: ${loaded.error}`),
  );
};

void start();
