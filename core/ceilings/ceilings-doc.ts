/**
 * docs/configuration.md's table of ceilings, written from the table (ceilings.ts) between its
 * markers, so the doc cannot drift from the code: `npm run docs:ceilings` writes it, and a test
 * holds the doc equal to `ceilingsSection()`.
 */
import { CEILING_NAMES, CEILINGS, type CeilingKey, type CeilingSpec } from "./ceilings.ts";

export const CEILINGS_START =
  "<!-- ceilings:start (written by npm run docs:ceilings from core/ceilings/ceilings.ts) -->";
export const CEILINGS_END = "<!-- ceilings:end -->";

const KEYS = {
  client: "per client",
  "client+endpoint": "per client and endpoint",
  "site+client": "per client on each site",
  wallet: "per wallet",
  payment: "per payment_id",
  site: "per site",
  service: "for the whole service",
} as const satisfies Record<CeilingKey, string>;

const WINDOWS: Readonly<Record<number, string>> = {
  1000: "a second",
  5000: "5 seconds",
  60000: "a minute",
  900000: "15 minutes",
  3600000: "an hour",
  86400000: "a UTC day",
};

/** Said once under the table: how a windowed ceiling can be met twice at a window's edge. */
const WINDOWS_NOTE =
  "Windows are fixed, aligned on the epoch (a minute turns on the UTC minute, a day at UTC midnight), so every instance agrees on them from its clock: a client may spend a whole window's limit at its end and again at the next one's start, up to twice the limit within a moment, never more than the limit within one window.";

const figure = (n: number) => n.toLocaleString("en-US");

const windowText = (spec: CeilingSpec) =>
  spec.windowMs === undefined ? "held at once" : (WINDOWS[spec.windowMs] ?? `${spec.windowMs} ms`);

const limitText = ({ limit }: CeilingSpec) =>
  limit.min === limit.max
    ? figure(limit.default)
    : `${figure(limit.default)} (${figure(limit.min)} to ${figure(limit.max)})`;

const scopeText = (spec: CeilingSpec) =>
  spec.scope === "service" ? "shared through the store" : `each instance: ${spec.instanceReason ?? ""}`;

const row = (name: string, spec: CeilingSpec) =>
  `| ${spec.setting === undefined ? "fixed" : `\`${spec.setting}\``} | ${limitText(spec)} | \`${name}\` | ${spec.counts}, ${KEYS[spec.key]}, ${windowText(spec)}${spec.note === undefined ? "" : `; ${spec.note}`} | ${scopeText(spec)} | ${spec.protects} |`;

/** The section between the markers, markers included. */
export const ceilingsSection = (): string =>
  [
    CEILINGS_START,
    "| variable | default (bounds) | ceiling | what it counts | instances | protects |",
    "|---|---|---|---|---|---|",
    ...CEILING_NAMES.map((name) => row(name, CEILINGS[name])),
    "",
    WINDOWS_NOTE,
    CEILINGS_END,
  ].join("\n");

/** `doc` with its section between the markers replaced; undefined when it has no markers. */
export const withCeilingsSection = (doc: string): string | undefined => {
  const start = doc.indexOf(CEILINGS_START);
  const end = doc.indexOf(CEILINGS_END);
  if (start < 0 || end < start) return undefined;
  return doc.slice(0, start) + ceilingsSection() + doc.slice(end + CEILINGS_END.length);
};
