/**
 * Run by docs-site.security.test.ts in a child process whose NODE_EXTRA_CA_CERTS trusts the
 * docs.test fixture certificate (a runtime reads it only at start): serves HTTPS as docs.test
 * on 127.0.0.2, has the crawler fetch it by two names pinned to that address, and prints what
 * each fetch got and which Host and TLS server name the server saw.
 */
import { readFileSync } from "node:fs";
import https from "node:https";
import { join } from "node:path";
import { addressGuard } from "../../adapters/docs-ingest/site/address-guard.ts";
import { safeFetch } from "../../adapters/docs-ingest/site/safe-fetch.ts";

const fixtures = join(import.meta.dir, "..", "fixtures", "tls");
const seen: Array<{ host: string | undefined; servername: string | undefined }> = [];
const server = https.createServer(
  {
    key: readFileSync(join(fixtures, "docs-test.key.pem")),
    cert: readFileSync(join(fixtures, "docs-test.cert.pem")),
  },
  (request, response) => {
    seen.push({
      host: request.headers.host,
      servername: (request.socket as { servername?: string }).servername,
    });
    response.setHeader("Content-Type", "text/html");
    response.end("<p>secure</p>");
  },
);
await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
const port = (server.address() as { port: number }).port;

const fetchAs = async (name: string) => {
  const outcome = await safeFetch(
    `https://${name}:${port}/`,
    {
      origins: new Set([`https://${name}:${port}`]),
      maxBytes: 4096,
      maxRedirects: 1,
      timeoutMs: 10_000,
      userAgent: "docs-chat-crawler-test/1.0",
      pinHost: addressGuard({
        allowPrivate: false,
        trusted: ["127.0.0.2/32"],
        resolve: async () => [{ address: "127.0.0.2", family: 4 }],
      }),
    },
    () => true,
  );
  return outcome.kind === "body" ? new TextDecoder().decode(outcome.body) : outcome;
};

const result = { docs: await fetchAs("docs.test"), other: await fetchAs("other.test"), seen };
server.close();
console.log(JSON.stringify(result));
