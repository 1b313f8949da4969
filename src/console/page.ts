/**
 * The HTML of /admin: the login form, or the console's shell that /admin/console.js fills in.
 * No inline script; the one inline stylesheet is allowed by its hash, so the policy stays strict
 * (nothing from another origin, no framing, forms only to us).
 */
import { createHash } from "node:crypto";
import type { ConsoleName } from "./routes/console-name.ts";

const STYLE = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --bg: #f5f7fa; --card: #fff; --line: #e3e7ee;
  --accent: #2458d6; --accent2: #c2410c; --good: #15803d; --bad: #b91c1c; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --muted: #a3acbd; --bg: #12151c; --card: #191d26;
  --line: #2a303c; --accent: #8fb0ff; --accent2: #fb923c; --good: #4ade80; --bad: #f87171; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 12px 20px; padding: 14px 24px; background: var(--card); border-bottom: 1px solid var(--line); }
header h1 { font-size: 18px; margin: 0; flex: 1 1 auto; }
h1 .site { font-weight: 400; }
h1 .site small { color: var(--muted); font-size: 14px; }
form.range { display: flex; flex-wrap: wrap; align-items: end; gap: 8px; }
form.range span { align-self: center; color: var(--muted); font-size: 13px; }
label { display: grid; gap: 2px; font-size: 12px; color: var(--muted); }
input { font: inherit; padding: 5px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
button, .button { font: inherit; padding: 6px 12px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; }
.quiet { background: transparent; color: var(--accent); }
main { padding: 20px 24px 48px; max-width: 1280px; margin: 0 auto; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(132px, 1fr)); gap: 12px; margin-bottom: 20px; }
.card, section { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; }
.card b { display: block; font-size: 21px; white-space: nowrap; }
.card span { color: var(--muted); font-size: 13px; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 520px), 1fr)); gap: 16px; }
section h2 { font-size: 16px; margin: 0 0 10px; }
#sites { margin-bottom: 20px; }
section p.note { color: var(--muted); font-size: 13px; margin: -6px 0 10px; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-top: 1px solid var(--line); }
td { overflow-wrap: break-word; }
th { color: var(--muted); font-weight: 600; border-top: 0; }
td.n, th.n { text-align: right; white-space: nowrap; }
td small { display: block; color: var(--muted); }
a { color: var(--accent); }
.links > * { display: inline-block; margin-right: 10px; }
.empty { color: var(--muted); }
svg.chart { width: 100%; height: auto; display: block; }
svg.chart text { fill: var(--muted); font-size: 14px; }
svg.chart .axis { stroke: var(--line); }
svg.chart .bar { fill: var(--accent); }
svg.chart .bar.declined { fill: var(--accent2); }
svg.chart .bar.revenue { fill: var(--good); }
.legend { font-size: 12px; color: var(--muted); display: flex; gap: 14px; margin-top: 6px; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; background: var(--accent); }
.legend i.declined { background: var(--accent2); }
.login { max-width: 380px; margin: 12vh auto; }
.login form { display: grid; gap: 12px; }
.error { color: var(--bad); }
code.addr { word-break: break-all; font-size: 12px; }
@media (max-width: 640px) { header, main { padding-left: 12px; padding-right: 12px; } .hide-narrow { display: none; } }
`;

const styleHash = createHash("sha256").update(STYLE).digest("base64");

export const ADMIN_PAGE_HEADERS = {
  "Content-Security-Policy": `default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'sha256-${styleHash}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  "X-Frame-Options": "DENY",
};

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;

/** Messages of the login form, by what happened (fixed texts: nothing from the request). */
export const LOGIN_MESSAGES = {
  none: "",
  wrong: "That is not the admin token.",
  locked: "Too many wrong tokens from your address: try again in a few minutes.",
  elsewhere:
    "The operator's admin token is not taken on this host name, which a site's owner runs: open this console on the service's own address, at",
} as const;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The site in the page's title: "Borealis docs", "borealis". */
const titleName = (site: ConsoleName) => escapeHtml(site.name);

/** The site in the header: its name, and a hosted site's id beside its title. */
const headerName = (site: ConsoleName) =>
  `<span class="site">· ${escapeHtml(site.name)}${site.id === undefined ? "" : ` <small>(${escapeHtml(site.id)})</small>`}</span>`;

/**
 * `base` is where the console is mounted: "" for the operator's, `/sites/<id>` for a hosted
 * site's, so its form, script and calls stay on that site's console; `site` names it.
 */
export const loginPage = (message: keyof typeof LOGIN_MESSAGES, base: string, site: ConsoleName) =>
  page(
    `Sign in · ${titleName(site)} · Docs chat insights`,
    `<main class="login"><section>
<h1>Docs chat insights ${headerName(site)}</h1>
<form method="post" action="${base}/admin/login">
<label>Admin token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
${message === "none" ? "" : `<p class="error" role="alert">${LOGIN_MESSAGES[message]}${message === "elsewhere" ? ` <code>${escapeHtml(base)}/admin</code>.` : ""}</p>`}
<button type="submit">Sign in</button>
</form>
</section></main>`,
  );

/** The console's shell; its script reads `data-base` to call the console's own API. */
export const consolePage = (base: string, site: ConsoleName) =>
  page(
    `${titleName(site)} · Docs chat insights`,
    `<header><h1>Docs chat insights ${headerName(site)}</h1><div id="controls"></div>
<form method="post" action="${base}/admin/logout"><button class="quiet" type="submit">Sign out</button></form></header>
<main id="console" aria-busy="true"><p class="empty">Loading…</p></main>
<script src="${base}/admin/console.js" defer data-base="${base}"></script>`,
  );
