import * as Context from "effect/Context";

/**
 * The key our 402s and sign-in challenges are sealed with: what we offered is carried by the
 * client, not stored, and proven ours by an HMAC under a key every instance sharing the store
 * holds (the memory store: one per process; Redis: one generated once and kept in Redis).
 */
export class RequestSeal extends Context.Service<
  RequestSeal,
  {
    /** HMAC-SHA256 of `message` under the key, domain-separated by `purpose`, as 64 hex digits. */
    readonly mac: (purpose: string, message: string) => string;
  }
>()("core/RequestSeal") {}
