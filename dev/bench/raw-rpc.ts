/** The baseline of the verification benchmarks: one raw getTransaction as the verifier asks for it. */

/** Milliseconds of one jsonParsed getTransaction at `confirmed` against `rpcUrl`. */
export const timedGetTransaction = async (rpcUrl: string, signature: string): Promise<number> => {
  const started = performance.now();
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "getTransaction",
      params: [
        signature,
        { encoding: "jsonParsed", commitment: "confirmed", maxSupportedTransactionVersion: 0 },
      ],
    }),
  });
  await res.json();
  return performance.now() - started;
};
