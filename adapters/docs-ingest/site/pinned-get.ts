/**
 * One GET whose connection goes only to addresses already judged (address-guard.ts). The URL
 * keeps its host name, so the Host header, the TLS server name (SNI) and the certificate check
 * all name the site, while `lookup` hands the socket the judged addresses instead of asking DNS
 * again. node:http and node:https take such a `lookup` on Bun, Deno and Node alike (tried on
 * Bun 1.4.5, Deno 2.9.6 and Node 20: Host, SNI and the certificate's name all the original's);
 * `fetch` has no such hook but Bun's own `tls.serverName`, which Deno lacks.
 *
 * No agent: a pooled connection would outlive the verdict it was opened under (another crawl,
 * other settings). Only gzip is asked for, and unpacked as it streams, so the size cap counts
 * what the page really is.
 */
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { pipeline } from "node:stream";
import { createGunzip } from "node:zlib";
import type { HostAddress } from "./address-guard.ts";

export interface PinnedResponse {
  readonly status: number;
  readonly header: (name: string) => string | undefined;
  readonly body: AsyncIterable<Uint8Array>;
  /** Drops the rest of the body and the connection. */
  readonly discard: () => void;
}

/** A `lookup` that answers the judged addresses for whatever name the socket asks about. */
const lookupOf =
  (addresses: ReadonlyArray<HostAddress>): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all === true) {
      callback(
        null,
        addresses.map(({ address, family }) => ({ address, family })),
      );
      return;
    }
    const chosen =
      addresses.find((entry) => !options.family || entry.family === options.family) ?? addresses[0]!;
    callback(null, chosen.address, chosen.family);
  };

/** GETs `url` from one of `addresses`; rejects when no response head arrives (see safe-fetch.ts). */
export const pinnedGet = (
  url: URL,
  addresses: ReadonlyArray<HostAddress>,
  headers: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<PinnedResponse> =>
  new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      url.href,
      {
        headers: { ...headers, "Accept-Encoding": "gzip" },
        signal,
        lookup: lookupOf(addresses),
        agent: false,
      },
      (response) => {
        const encoding = (response.headers["content-encoding"] ?? "identity").trim().toLowerCase();
        if (encoding !== "identity" && encoding !== "gzip" && encoding !== "x-gzip") {
          response.destroy();
          reject(new Error(`content-encoding ${encoding} was not asked for`));
          return;
        }
        // pipeline's callback may ignore the error: it destroys the gunzip stream with it, and
        // reading that stream (safe-fetch.ts) throws it there.
        const body = encoding === "identity" ? response : pipeline(response, createGunzip(), () => undefined);
        resolve({
          status: response.statusCode ?? 0,
          header: (name) => {
            const value = response.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(", ") : value;
          },
          body,
          discard: () => {
            body.destroy();
            response.destroy();
          },
        });
      },
    );
    request.on("error", reject);
    request.end();
  });
