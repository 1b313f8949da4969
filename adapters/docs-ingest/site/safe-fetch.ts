/**
 * One HTTP GET of the crawler, within bounds: only the allowed origins (a redirect elsewhere
 * is refused, not followed), no private addresses unless allowed, at most `maxRedirects`
 * hops, `maxBytes` of body and `timeoutMs` in all. Every hop, redirects included, connects to
 * the addresses its host was judged by (address-guard.ts, pinned-get.ts), never to a second
 * DNS answer. Conditional headers make an unchanged page
 * cost a 304. Every outcome is a value: the crawl reports failures, it never throws them.
 */
import { gunzipSync } from "node:zlib";
import type { PinHost } from "./address-guard.ts";
import { type PinnedResponse, pinnedGet } from "./pinned-get.ts";

export interface FetchLimits {
  /** Origins ("https://docs.example.com") the crawler may fetch from. */
  readonly origins: ReadonlySet<string>;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly timeoutMs: number;
  readonly userAgent: string;
  /** The addresses a host may be fetched from, or why none (address-guard.ts). */
  readonly pinHost: PinHost;
}

/** What can go wrong with one fetch; each kind gets one line in the crawl's report. */
export type FetchFailure =
  | "unreachable"
  | "tls"
  | "timeout"
  | "off-origin-redirect"
  | "too-many-redirects"
  | "too-large"
  | "private-address"
  | "http-error";

export type FetchOutcome =
  | {
      readonly kind: "body";
      /** The URL the body came from, after redirects. */
      readonly url: string;
      readonly contentType: string;
      readonly body: Uint8Array;
      readonly etag: string | undefined;
      readonly lastModified: string | undefined;
    }
  | { readonly kind: "not-modified"; readonly url: string }
  | { readonly kind: "gone"; readonly url: string; readonly status: number }
  | { readonly kind: "refused-type"; readonly url: string; readonly contentType: string }
  | {
      readonly kind: "failed";
      readonly url: string;
      readonly failure: FetchFailure;
      readonly detail: string;
    };

export interface Conditions {
  readonly etag?: string | undefined;
  readonly lastModified?: string | undefined;
}

const TLS_WORDS = /certificate|ssl|tls|self[- ]signed|CERT_|handshake/i;

/**
 * The failure kind of a thrown request error (Bun, Deno and Node word them differently). A
 * deadline met mid-body surfaces as a reset connection, hence the signal's word first.
 */
const classify = (error: unknown, signal: AbortSignal): { failure: FetchFailure; detail: string } => {
  const name = error instanceof Error ? error.name : "";
  const code = String((error as { code?: unknown } | undefined)?.code ?? "");
  const message = error instanceof Error ? error.message : String(error);
  if (signal.aborted || name === "TimeoutError" || name === "AbortError")
    return { failure: "timeout", detail: "no answer in time" };
  if (TLS_WORDS.test(code) || TLS_WORDS.test(message)) return { failure: "tls", detail: code || message };
  return { failure: "unreachable", detail: code || message };
};

/** Reads at most `maxBytes` of the body; undefined when it is longer. */
const readCapped = async (response: PinnedResponse, maxBytes: number): Promise<Uint8Array | undefined> => {
  if (Number(response.header("content-length") ?? "0") > maxBytes) {
    response.discard();
    return undefined;
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of response.body) {
    size += part.byteLength;
    if (size > maxBytes) {
      response.discard();
      return undefined;
    }
    parts.push(part);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.byteLength;
  }
  return body;
};

/** A gzipped body (a sitemap.xml.gz) unpacked, within the same size cap. */
export const gunzipCapped = (body: Uint8Array, maxBytes: number): Uint8Array | undefined => {
  if (body[0] !== 0x1f || body[1] !== 0x8b) return body;
  try {
    return gunzipSync(body, { maxOutputLength: maxBytes });
  } catch {
    return undefined;
  }
};

/**
 * GETs `url` following same-origin redirects; `accepts` sees the content type before the body
 * is read, so a PDF or an image costs only its headers.
 */
export const safeFetch = async (
  url: string,
  limits: FetchLimits,
  accepts: (contentType: string) => boolean,
  conditions: Conditions = {},
): Promise<FetchOutcome> => {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let current = url;
  for (let hop = 0; hop <= limits.maxRedirects; hop++) {
    const target = new URL(current);
    if (!limits.origins.has(target.origin))
      return {
        kind: "failed",
        url,
        failure: "off-origin-redirect",
        detail: `redirected to ${target.origin}, which is not an allowed origin`,
      };
    let response: PinnedResponse;
    try {
      const verdict = await limits.pinHost(target.hostname);
      if (verdict.kind === "refused")
        return { kind: "failed", url, failure: "private-address", detail: verdict.reason };
      const headers: Record<string, string> = { "User-Agent": limits.userAgent };
      if (conditions.etag !== undefined) headers["If-None-Match"] = conditions.etag;
      if (conditions.lastModified !== undefined) headers["If-Modified-Since"] = conditions.lastModified;
      response = await pinnedGet(target, verdict.addresses, headers, signal);
    } catch (error) {
      return { kind: "failed", url, ...classify(error, signal) };
    }
    const location = response.header("location");
    if (
      response.status >= 300 &&
      response.status < 400 &&
      response.status !== 304 &&
      location !== undefined
    ) {
      response.discard();
      current = new URL(location, current).href;
      continue;
    }
    if (response.status === 304) {
      response.discard();
      return { kind: "not-modified", url: current };
    }
    if (response.status === 404 || response.status === 410) {
      response.discard();
      return { kind: "gone", url: current, status: response.status };
    }
    if (response.status < 200 || response.status > 299) {
      response.discard();
      return { kind: "failed", url, failure: "http-error", detail: `HTTP ${response.status}` };
    }
    const contentType = (response.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!accepts(contentType)) {
      response.discard();
      return { kind: "refused-type", url: current, contentType };
    }
    try {
      const body = await readCapped(response, limits.maxBytes);
      if (body === undefined)
        return { kind: "failed", url, failure: "too-large", detail: `larger than ${limits.maxBytes} bytes` };
      return {
        kind: "body",
        url: current,
        contentType,
        body,
        etag: response.header("etag"),
        lastModified: response.header("last-modified"),
      };
    } catch (error) {
      return { kind: "failed", url, ...classify(error, signal) };
    }
  }
  return {
    kind: "failed",
    url,
    failure: "too-many-redirects",
    detail: `more than ${limits.maxRedirects} redirects`,
  };
};
