/**
 * GET /: a small documentation page with the widget embedded exactly as a docs site would embed
 * it (one script tag with data- attributes), so `npm start` shows the product in a browser. The
 * assistant answers from whatever the service indexed (by default this project's README).
 */

const EXAMPLES = [
  "How do I pay for more questions?",
  "How is a client identified?",
  "What happens when Redis is down?",
];

/** A strict policy: the widget needs no inline script and no other origin. */
export const DEMO_PAGE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
};

export const DEMO_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Docs chat 402 · documentation</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --bg: #ffffff; --side: #f5f7fa; --line: #e3e7ee; --link: #2458d6; }
  @media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --muted: #a3acbd; --bg: #12151c; --side: #191d26; --line: #2a303c; --link: #8fb0ff; } }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
  header { display: flex; align-items: center; gap: 12px; padding: 14px 28px; border-bottom: 1px solid var(--line); }
  header strong { font-size: 18px; }
  header span { color: var(--muted); font-size: 14px; }
  .layout { display: grid; grid-template-columns: 220px minmax(0, 760px); gap: 40px; padding: 0 28px; }
  nav { padding: 24px 0; font-size: 14px; }
  nav a { display: block; padding: 4px 0; color: var(--muted); text-decoration: none; }
  nav a:hover { color: var(--link); }
  main { padding: 8px 0 80px; }
  h1 { font-size: 32px; line-height: 1.2; margin: 24px 0 8px; }
  h2 { font-size: 22px; margin-top: 36px; padding-top: 8px; border-top: 1px solid var(--line); }
  a { color: var(--link); }
  code { font: 14px ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--side); padding: 1px 5px; border-radius: 4px; }
  pre { background: var(--side); border: 1px solid var(--line); border-radius: 8px; padding: 14px; overflow-x: auto; }
  pre code { padding: 0; background: none; }
  kbd { font: 13px ui-monospace, monospace; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 5px; }
  .hint { background: var(--side); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; }
  @media (max-width: 767px) { .layout { grid-template-columns: minmax(0, 1fr); gap: 0; padding: 0 18px; } nav { display: none; } header { padding: 12px 18px; } h1 { font-size: 26px; } }
</style>
</head>
<body>
<header><strong>Docs chat 402</strong><span>documentation</span></header>
<div class="layout">
  <nav aria-label="Contents">
    <a href="#start">Getting started</a>
    <a href="#ask">Asking questions</a>
    <a href="#pay">Paying for more</a>
    <a href="#embed">Embedding the widget</a>
  </nav>
  <main>
    <h1>A paid assistant for your docs</h1>
    <p>Docs chat 402 answers your visitors' questions from your documentation, with numbered
    citations linked to the passages it used. A few questions a day are free; more are bought
    with USDC on Solana, from 0.01 USDC for 10 questions.</p>
    <p class="hint">Try it: press <kbd>Ctrl</kbd> + <kbd>K</kbd> (<kbd>⌘</kbd> + <kbd>K</kbd> on a Mac) or the
    <strong>Ask the docs</strong> button. This demo answers from the project's own README.</p>
    <h2 id="start">Getting started</h2>
    <pre tabindex="0"><code>npm install &amp;&amp; npm start   # http://localhost:3000</code></pre>
    <p>With nothing configured, the service indexes its README, answers without a language model and
    takes payments on a local demo chain, so everything works offline.</p>
    <h2 id="ask">Asking questions</h2>
    <p>Answers stream in as they are written. Each <code>[n]</code> links to its source below the
    answer. Use the thumbs to tell the docs team whether an answer helped.</p>
    <h2 id="pay">Paying for more</h2>
    <p>When the free questions are used up, the assistant offers to pay with a browser wallet, a
    phone wallet (Solana Pay QR code) or a transaction signature you paste. On the local demo
    chain a funded demo wallet is one click away.</p>
    <h2 id="embed">Embedding the widget</h2>
    <pre tabindex="0"><code>&lt;script src="https://your-service.example/widget.js" defer
        data-title="Ask the docs" data-accent="#2458d6"&gt;&lt;/script&gt;</code></pre>
  </main>
</div>
<script src="/widget.js" defer
  data-title="Ask the docs"
  data-welcome="Hi! I answer questions about Docs chat 402 from its documentation."
  data-examples="${EXAMPLES.join("|")}"></script>
</body>
</html>
`;
