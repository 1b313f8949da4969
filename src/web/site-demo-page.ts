/**
 * GET /sites/<id>/: a hosted site's demo page, the widget embedded with `data-site` as that
 * site's docs would embed it, so an operator sees each site's assistant (its docs, its price,
 * its wallet) in a browser before the docs owner embeds it. Same strict policy as the default page.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The page of site `id`; `origin`: the service's address its embed snippet names. */
export const siteDemoPage = (id: string, title: string | undefined, origin: string): string => {
  const name = escapeHtml(title ?? id);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} · docs assistant</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: light dark; }
  body { margin: 0 auto; max-width: 760px; padding: 24px 28px 80px; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; }
  code { font: 14px ui-monospace, SFMono-Regular, Menlo, monospace; }
  pre { padding: 12px 16px; border: 1px solid #8884; border-radius: 8px; overflow-x: auto; }
</style>
</head>
<body>
<h1>${name}</h1>
<p>This page embeds the assistant of the site <code>${escapeHtml(id)}</code>: it answers from this site's docs only,
with this site's free questions, price and wallet. Open it with the button in the corner.</p>
<p>To embed it in the site's own pages:</p>
<pre tabindex="0"><code>&lt;script src="${escapeHtml(origin)}/widget.js" defer data-site="${escapeHtml(id)}"
        data-title="Ask ${name}"&gt;&lt;/script&gt;</code></pre>
<script src="/widget.js" defer data-site="${escapeHtml(id)}" data-title="Ask ${name}"></script>
</body>
</html>
`;
};
