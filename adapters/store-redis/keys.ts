/**
 * Key layout of the Redis store (README documents it). The identity or signature always
 * ends the key, so two different identities can never map to one key.
 */
export const DEFAULT_KEY_PREFIX = "docs-chat:";

/** The key names under one prefix. */
export const keyLayout = (prefix: string) => ({
  /** [day counters, paid credits, holds] of one identity, in the order the quota scripts take them. */
  quota: (identity: string): [string, string, string] => [
    `${prefix}quota:day:${identity}`,
    `${prefix}quota:credits:${identity}`,
    `${prefix}quota:holds:${identity}`,
  ],
  signature: (signature: string) => `${prefix}sig:${signature}`,
  referenceOf: (identity: string) => `${prefix}ref:id:${identity}`,
  ownerPrefix: `${prefix}ref:of:`,
});

export type KeyLayout = ReturnType<typeof keyLayout>;
