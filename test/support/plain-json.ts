/**
 * kit's default RPC client turns every JSON integer of a reply into a bigint; the reader's own
 * client (adapters/chain-solana/json-transport.ts) does so only beyond 2^53. Tests that feed
 * the reader replies from kit's default client convert them to that shape here.
 */

/** A copy of `value` with safe-integer bigints turned into numbers. */
export const toPlainJson = (value: unknown, depth = 0): unknown => {
  if (depth > 64) return value;
  if (typeof value === "bigint") {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value;
  }
  if (Array.isArray(value)) return value.map((item) => toPlainJson(item, depth + 1));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, toPlainJson(item, depth + 1)]),
    );
  }
  return value;
};
