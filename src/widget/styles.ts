/** The widget's styles, scoped by its shadow root: nothing leaks in or out. */
export const STYLES = `
:host { all: initial; --accent: #2458d6; --on-accent: #fff; --bg: #fff; --fg: #1b2130; --muted: #5d6678;
  --line: #dfe3ea; --soft: #f3f5f9; --user: #e9effc; --danger: #b42318; --ok: #12733b; --shadow: 0 12px 40px rgba(15,23,42,.22);
  position: fixed; z-index: 2147483000; bottom: 20px; right: 20px; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); }
:host([position=left]) { right: auto; left: 20px; }
:host([theme=dark]) { --bg: #171b24; --fg: #e7eaf0; --muted: #a4adbf; --line: #2d3442; --soft: #202634; --user: #24314d;
  --danger: #ff8a80; --ok: #6fdc9a; --shadow: 0 12px 40px rgba(0,0,0,.55); }
:host([theme=dark]:not([accented])) { --accent: #7ea2ff; --on-accent: #0d1326; }
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
button { font: inherit; color: inherit; cursor: pointer; }
button:disabled { cursor: default; opacity: .55; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.launcher { display: flex; align-items: center; gap: 8px; border: 0; border-radius: 999px; padding: 12px 18px;
  background: var(--accent); color: var(--on-accent); font-weight: 600; box-shadow: var(--shadow); }
.launcher svg { width: 20px; height: 20px; }
.launcher kbd { font: 12px ui-monospace, monospace; opacity: .8; border: 1px solid currentColor; border-radius: 4px; padding: 0 4px; }
.panel { position: absolute; bottom: 0; right: 0; width: min(420px, calc(100vw - 40px)); height: min(640px, calc(100vh - 40px));
  display: flex; flex-direction: column; background: var(--bg); color: var(--fg); border: 1px solid var(--line);
  border-radius: 16px; box-shadow: var(--shadow); overflow: hidden; }
:host([position=left]) .panel { right: auto; left: 0; }
header { display: flex; align-items: flex-start; gap: 8px; padding: 12px 12px 10px 16px; border-bottom: 1px solid var(--line); }
header .heading { flex: 1; min-width: 0; }
h2 { margin: 0; font-size: 16px; line-height: 1.3; }
.quota { display: block; font-size: 12.5px; color: var(--muted); }
.quota strong { color: var(--fg); font-weight: 600; }
.wallet-line { display: block; font-size: 12.5px; color: var(--muted); }
button.link { background: none; border: 0; padding: 0; color: var(--accent); font: inherit; cursor: pointer; text-decoration: underline; }
.icon { border: 0; background: none; border-radius: 8px; width: 34px; height: 34px; display: grid; place-items: center; color: var(--muted); }
.icon:hover { background: var(--soft); color: var(--fg); }
.icon svg { width: 18px; height: 18px; }
.log { flex: 1; overflow-y: auto; padding: 14px 16px; display: flex; flex-direction: column; gap: 14px; overscroll-behavior: contain; }
.welcome p { margin: 0 0 10px; }
.examples { display: flex; flex-wrap: wrap; gap: 6px; }
.examples button, .chip { border: 1px solid var(--line); background: var(--soft); border-radius: 999px; padding: 5px 11px; font-size: 13.5px; text-align: left; }
.examples button:hover { border-color: var(--accent); }
.msg { max-width: 100%; overflow-wrap: anywhere; }
.msg.user { align-self: flex-end; max-width: 85%; background: var(--user); border-radius: 14px 14px 4px 14px; padding: 8px 12px; white-space: pre-wrap; }
.msg.bot .body > :first-child { margin-top: 0; } .msg.bot .body > :last-child { margin-bottom: 0; }
.msg.bot p, .msg.bot ul, .msg.bot ol, .msg.bot blockquote { margin: 0 0 8px; }
.msg.bot li > p { margin: 0; }
.msg.bot h3, .msg.bot h4, .msg.bot h5, .msg.bot h6 { font-size: 15px; margin: 10px 0 4px; }
.msg.bot blockquote { border-left: 3px solid var(--line); padding-left: 10px; color: var(--muted); }
a { color: var(--accent); }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--soft); border-radius: 4px; padding: 1px 4px; }
.code { position: relative; margin: 0 0 8px; }
.code pre { margin: 0; padding: 12px; padding-right: 64px; background: var(--soft); border: 1px solid var(--line); border-radius: 8px; overflow-x: auto; }
.code pre code { background: none; padding: 0; }
.copy { position: absolute; top: 6px; right: 6px; font-size: 12px; border: 1px solid var(--line); background: var(--bg); border-radius: 6px; padding: 2px 8px; }
.table { overflow-x: auto; margin: 0 0 8px; } table { border-collapse: collapse; font-size: 14px; } th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; }
.cite { text-decoration: none; font-size: 12px; font-weight: 600; vertical-align: super; line-height: 0; padding: 0 1px; }
.stopped, .note { color: var(--muted); font-size: 13px; font-style: italic; }
.sources { margin: 8px 0 0; padding: 8px 0 0; border-top: 1px dashed var(--line); list-style: none; font-size: 13px; display: grid; gap: 4px; }
.sources li { display: flex; gap: 6px; border-radius: 6px; padding: 2px 4px; }
.sources li:target, .sources li.flash { background: var(--user); }
.sources .n { flex: none; color: var(--muted); font-variant-numeric: tabular-nums; }
.sources .where { color: var(--muted); }
.feedback { display: flex; gap: 4px; margin-top: 6px; align-items: center; color: var(--muted); font-size: 12.5px; }
.feedback button { border: 1px solid var(--line); background: none; border-radius: 8px; width: 30px; height: 28px; display: grid; place-items: center; }
.feedback button[aria-pressed=true] { background: var(--accent); border-color: var(--accent); color: var(--on-accent); }
.feedback svg { width: 15px; height: 15px; }
.typing::after { content: "▍"; animation: blink 1s steps(2) infinite; color: var(--muted); }
@keyframes blink { 50% { opacity: 0; } }
.error { border: 1px solid var(--danger); color: var(--danger); border-radius: 10px; padding: 8px 12px; font-size: 14px; }
form { display: flex; gap: 8px; padding: 10px 12px; border-top: 1px solid var(--line); align-items: flex-end; }
textarea { flex: 1; resize: none; font: inherit; color: var(--fg); background: var(--soft); border: 1px solid var(--line); border-radius: 10px; padding: 8px 10px; max-height: 120px; min-height: 40px; }
textarea:focus-visible { outline: 2px solid var(--accent); outline-offset: 0; }
.primary { border: 0; border-radius: 10px; background: var(--accent); color: var(--on-accent); padding: 9px 14px; font-weight: 600; min-height: 40px; }
.secondary { border: 1px solid var(--line); background: var(--bg); border-radius: 10px; padding: 8px 12px; min-height: 38px; }
.footnote { margin: 0; padding: 0 12px 8px; font-size: 11.5px; color: var(--muted); text-align: center; }
.pay { border: 1px solid var(--line); border-radius: 12px; padding: 12px 14px; background: var(--soft); display: grid; gap: 10px; }
.pay h3 { margin: 0; font-size: 15px; }
.pay p { margin: 0; font-size: 14px; }
.amounts { display: grid; grid-template-columns: repeat(5, minmax(0, 1fr)); gap: 5px; border: 0; margin: 0; padding: 0; }
.amounts legend { font-size: 13px; color: var(--muted); margin-bottom: 4px; padding: 0; }
.amounts label { display: grid; text-align: center; border: 1px solid var(--line); background: var(--bg); border-radius: 10px; padding: 6px 2px; cursor: pointer; font-size: 12.5px; line-height: 1.3; }
.amounts label small { color: var(--muted); font-size: 11px; }
.amounts input { position: absolute; opacity: 0; pointer-events: none; }
.amounts label:has(input:checked) { border-color: var(--accent); box-shadow: inset 0 0 0 1px var(--accent); }
.amounts label:has(input:focus-visible) { outline: 2px solid var(--accent); outline-offset: 2px; }
.methods { display: grid; gap: 6px; }
.methods button[aria-expanded=true] { border-color: var(--accent); box-shadow: inset 0 0 0 1px var(--accent); font-weight: 600; }
.method { display: grid; gap: 8px; }
.wallets { display: grid; gap: 6px; }
.wallets button { display: flex; align-items: center; gap: 8px; text-align: left; }
.wallets img { width: 22px; height: 22px; border-radius: 4px; }
.qr { display: grid; justify-items: center; gap: 6px; }
.qr svg { width: 180px; height: 180px; background: #fff; border-radius: 8px; }
.qr a { font-size: 12.5px; word-break: break-all; }
.row { display: flex; gap: 6px; }
.row input { flex: 1; min-width: 0; font: 13px ui-monospace, monospace; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 10px; padding: 8px; }
.progress { font-size: 13.5px; color: var(--fg); }
.success { color: var(--ok); font-weight: 600; }
@media (max-width: 767px) {
  :host { bottom: 14px; right: 14px; }
  :host([position=left]) { left: 14px; }
  :host([open]) { inset: 0; }
  .launcher kbd { display: none; }
  :host([open]) .panel { position: fixed; inset: 0; width: 100vw; height: 100dvh; border-radius: 0; border: 0; }
}
@media (prefers-reduced-motion: reduce) { .typing::after { animation: none; } }
`;
