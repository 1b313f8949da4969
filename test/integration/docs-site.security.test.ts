/**
 * The crawler connects only to the addresses it judged. Two loopback servers share a port: the
 * "vetted" one on 127.0.0.2 (trusted for these tests, as a public site would be) and the
 * "inside" one on 127.0.0.1, the address a rebinding name answers next (in production:
 * 169.254.169.254 or the service's own network). The name is `localhost`, which the system
 * resolver answers with 127.0.0.1: a crawler that lets `fetch` resolve again reaches "inside".
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import {
  addressGuard,
  type HostAddress,
  type Resolve,
} from "../../adapters/docs-ingest/site/address-guard.ts";
import { type FetchLimits, safeFetch } from "../../adapters/docs-ingest/site/safe-fetch.ts";

const VETTED: HostAddress = { address: "127.0.0.2", family: 4 };
const INSIDE: HostAddress = { address: "127.0.0.1", family: 4 };

interface Seen {
  readonly path: string;
  readonly host: string | null;
}

const serve = (hostname: string, port: number, seen: Seen[]) =>
  Bun.serve({
    hostname,
    port,
    fetch: (request) => {
      const url = new URL(request.url);
      seen.push({ path: url.pathname, host: request.headers.get("host") });
      if (url.pathname === "/hop") return Response.redirect(`http://localhost:${port}/page`, 302);
      if (url.pathname === "/away") return Response.redirect(`http://inner.test:${port}/secret`, 302);
      if (url.pathname === "/to-literal") return Response.redirect(`http://127.0.0.1:${port}/secret`, 302);
      if (url.pathname === "/zipped")
        return new Response(gzipSync("<p>packed</p>"), {
          headers: { "Content-Type": "text/html", "Content-Encoding": "gzip" },
        });
      if (url.pathname === "/bomb")
        return new Response(gzipSync("a".repeat(1024 * 1024)), {
          headers: { "Content-Type": "text/html", "Content-Encoding": "gzip" },
        });
      if (url.pathname === "/stall")
        return new Response(
          new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("<p>")) }),
          { headers: { "Content-Type": "text/html" } },
        );
      return new Response(`<p>${hostname}</p>`, { headers: { "Content-Type": "text/html" } });
    },
  });

const insideSeen: Seen[] = [];
const vettedSeen: Seen[] = [];
let inside: ReturnType<typeof serve>;
let vetted: ReturnType<typeof serve>;
let port: number;
beforeAll(() => {
  inside = serve("127.0.0.1", 0, insideSeen);
  port = inside.port!;
  vetted = serve("127.0.0.2", port, vettedSeen);
});
afterAll(() => {
  inside.stop(true);
  vetted.stop(true);
});

/** A resolver that answers `first` once, then `next` for ever: a rebinding name. */
const rebinding = (first: HostAddress, next: HostAddress) => {
  const calls: string[] = [];
  const resolve: Resolve = async (hostname) => {
    calls.push(hostname);
    return [calls.length === 1 ? first : next];
  };
  return { resolve, calls };
};

const limitsWith = (resolve: Resolve, origins: ReadonlyArray<string>): FetchLimits => ({
  origins: new Set(origins),
  maxBytes: 64 * 1024,
  maxRedirects: 5,
  timeoutMs: 10_000,
  userAgent: "docs-chat-crawler-test/1.0",
  pinHost: addressGuard({ allowPrivate: false, resolve, trusted: ["127.0.0.2/32"] }),
});

const text = (body: Uint8Array) => new TextDecoder().decode(body);

describe("the crawler connects to the address it vetted", () => {
  test("a name that answers the vetted address first and an inside one next reaches only the first, with its own Host", async () => {
    const { resolve, calls } = rebinding(VETTED, INSIDE);
    const limits = limitsWith(resolve, [`http://localhost:${port}`]);
    insideSeen.length = 0;
    vettedSeen.length = 0;
    const pages = [];
    for (const path of ["/a", "/b", "/hop", "/c"])
      pages.push(await safeFetch(`http://localhost:${port}${path}`, limits, () => true));
    expect(pages.map((page) => (page.kind === "body" ? text(page.body) : page.kind))).toEqual([
      "<p>127.0.0.2</p>",
      "<p>127.0.0.2</p>",
      "<p>127.0.0.2</p>",
      "<p>127.0.0.2</p>",
    ]);
    expect(insideSeen).toEqual([]);
    expect(vettedSeen.map((seen) => seen.path)).toEqual(["/a", "/b", "/hop", "/page", "/c"]);
    expect(new Set(vettedSeen.map((seen) => seen.host))).toEqual(new Set([`localhost:${port}`]));
    expect(calls).toEqual(["localhost"]);
  });

  test("a name that answers an inside address is refused before any request", async () => {
    const { resolve } = rebinding(INSIDE, VETTED);
    insideSeen.length = 0;
    const outcome = await safeFetch(
      `http://localhost:${port}/a`,
      limitsWith(resolve, [`http://localhost:${port}`]),
      () => true,
    );
    expect(outcome).toMatchObject({ kind: "failed", failure: "private-address" });
    expect(insideSeen).toEqual([]);
  });

  test("a redirect to a host that resolves inside is refused, though its origin is allowed", async () => {
    const resolve: Resolve = async (hostname) => [hostname === "docs.test" ? VETTED : INSIDE];
    const origins = [`http://docs.test:${port}`, `http://inner.test:${port}`, `http://127.0.0.1:${port}`];
    insideSeen.length = 0;
    const named = await safeFetch(`http://docs.test:${port}/away`, limitsWith(resolve, origins), () => true);
    expect(named).toMatchObject({ kind: "failed", failure: "private-address" });
    const literal = await safeFetch(
      `http://docs.test:${port}/to-literal`,
      limitsWith(resolve, origins),
      () => true,
    );
    expect(literal).toMatchObject({ kind: "failed", failure: "private-address" });
    expect(insideSeen).toEqual([]);
  });

  test("every spelling of an inside address given as the host is refused without a lookup", async () => {
    const { resolve, calls } = rebinding(VETTED, VETTED);
    for (const host of [
      "[::ffff:127.0.0.1]",
      "[64:ff9b::7f00:1]",
      "[2002:7f00:1::]",
      "[::7f00:1]",
      "[fec0::1]",
      "192.0.0.1",
      "[::ffff:0:7f00:1]",
      "169.254.169.254",
    ]) {
      const origin = `http://${host}:${port}`;
      const outcome = await safeFetch(
        `${origin}/a`,
        limitsWith(resolve, [new URL(origin).origin]),
        () => true,
      );
      expect(outcome).toMatchObject({ kind: "failed", failure: "private-address" });
    }
    expect(calls).toEqual([]);
  });
});

describe("over TLS the pinned connection still names the site", () => {
  test("Host, SNI and the certificate check use the URL's name: docs.test passes, other.test fails on the certificate", async () => {
    const probe = Bun.spawn([process.execPath, join(import.meta.dir, "../support/tls-pinned-probe.ts")], {
      env: {
        ...process.env,
        NODE_EXTRA_CA_CERTS: join(import.meta.dir, "../fixtures/tls/docs-test.cert.pem"),
      },
      stdout: "pipe",
    });
    const result = JSON.parse(await new Response(probe.stdout).text());
    expect(await probe.exited).toBe(0);
    expect(result.docs).toBe("<p>secure</p>");
    expect(result.other).toMatchObject({
      kind: "failed",
      failure: "tls",
      detail: "ERR_TLS_CERT_ALTNAME_INVALID",
    });
    expect(result.seen).toEqual([
      { host: expect.stringMatching(/^docs\.test:\d+$/), servername: "docs.test" },
    ]);
  });
});

describe("the pinned request keeps safe-fetch's bounds", () => {
  const { resolve } = rebinding(VETTED, VETTED);
  const limits = () => limitsWith(resolve, [`http://localhost:${port}`]);

  test("a gzip-encoded page is unpacked", async () => {
    const outcome = await safeFetch(`http://localhost:${port}/zipped`, limits(), () => true);
    expect(outcome.kind === "body" ? text(outcome.body) : outcome.kind).toBe("<p>packed</p>");
  });

  test("the size cap counts the unpacked page: 1 MiB packed into a few KiB is too large", async () => {
    const outcome = await safeFetch(`http://localhost:${port}/bomb`, limits(), () => true);
    expect(outcome).toMatchObject({ kind: "failed", failure: "too-large" });
  });

  test("a body that stops coming is cut at the deadline and reported as a timeout", async () => {
    const outcome = await safeFetch(
      `http://localhost:${port}/stall`,
      { ...limits(), timeoutMs: 300 },
      () => true,
    );
    expect(outcome).toMatchObject({ kind: "failed", failure: "timeout" });
  });
});
