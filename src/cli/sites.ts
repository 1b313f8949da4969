/**
 * `npm run sites [-- --json]`: the sites of SITES_FILE as the service would host them, each
 * with its docs, host names, price, free questions, wallet, its index (built or missing, chunks
 * and files, where), its last docs sync and today's questions (both read from Redis; unknown
 * without REDIS_URL, since a memory store lives inside the service). Exit 0, or 2 when
 * SITES_FILE is unset or invalid (every problem named).
 */
import type { DocsSyncRecord } from "../../core/ports/docs-sync.ts";
import { siteAppConfig } from "../sites/site-config.ts";
import { commandLine } from "./command-line.ts";
import { type SiteFacts, siteFacts } from "./site-facts.ts";
import { sitesOf } from "./site-option.ts";

const USAGE = `Usage: npm run sites [-- --json]

Lists the sites of SITES_FILE: id and title, docs, hosts, price of a question and free
questions a day, receiving wallet, index (built or missing, chunks, files, its file or
Chroma collection), the last docs sync of a URL site and today's questions (UTC). The last
two are read from Redis (REDIS_URL); with the memory store they live in the service's own
process and are shown as unknown (the operator's console, /admin, shows them).

Options:
  --json      one JSON document: {"sites":[...]}, money as exact base units in strings
  -h, --help  show this text`;

const {
  values,
  fail,
  config: readConfig,
} = commandLine("sites", USAGE, {
  json: { type: "boolean", default: false },
});

const config = readConfig();
const { sites } = sitesOf(config, fail);
const facts: SiteFacts[] = [];
for (const site of sites)
  facts.push(await siteFacts(site, siteAppConfig(config, site), config.chain?.wallet));

if (values.json) {
  console.log(JSON.stringify({ sitesFile: config.sitesFile, sites: facts }, null, 2));
  process.exit(0);
}

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

const indexLine = ({ index }: SiteFacts) => {
  const held =
    index.chunks === null
      ? ""
      : `: ${index.chunks} chunks${index.files === null ? "" : ` from ${index.files} files`}`;
  return `${index.state}${held} (${index.where})`;
};

const syncLine = (sync: SiteFacts["lastSync"], site: SiteFacts) => {
  if (typeof sync === "string") return sync;
  if (sync === null)
    return site.docs.startsWith("http") ? "none yet" : "- (a folder: npm run ingest -- --site ID)";
  const record: DocsSyncRecord = sync;
  return record.ok
    ? `${utc(record.at)}, ${record.pages} pages, ${record.changed} changed, ${record.removed} removed, ${record.errors} errors`
    : `${utc(record.at)}, failed: ${record.problem ?? "unknown"} (the previous index kept serving)`;
};

const todayLine = (today: SiteFacts["today"]) => {
  if (typeof today === "string") return today;
  if (today === null) return "unknown (the store did not answer)";
  return `${today.questions} questions (${today.answered} answered, ${today.declined} declined), ${today.payments} payments, ${today.revenueUsdc} USDC`;
};

const block = (site: SiteFacts) => {
  const rows: ReadonlyArray<readonly [string, string]> = [
    ["docs", site.docs],
    ["hosts", site.hosts.length === 0 ? "-" : site.hosts.join(", ")],
    [
      "price",
      `${site.price.usdc} USDC a question (${site.price.units} base units), ${site.freeQuestions} free a day`,
    ],
    ["wallet", site.wallet ?? "the service's (the local demo chain's)"],
    ["index", indexLine(site)],
    ["last sync", syncLine(site.lastSync, site)],
    ["today", todayLine(site.today)],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return [
    site.title === null ? site.id : `${site.id}  ${site.title}`,
    ...rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`),
  ].join("\n");
};

console.log(
  facts.length === 0
    ? `SITES_FILE ${config.sitesFile} lists no sites.`
    : [
        `${facts.length} ${facts.length === 1 ? "site" : "sites"} in ${config.sitesFile}`,
        ...facts.map(block),
      ].join("\n\n"),
);
