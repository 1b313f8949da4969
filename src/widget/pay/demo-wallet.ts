/**
 * The demo wallet of the local chain: a key pair kept in this docs site's localStorage (a
 * throwaway key of a local test chain, never real money), so the same browser is the same
 * wallet after a reload and can sign in with it; funded by the service's faucet (POST
 * /api/demo-wallet, present only on the local demo chain) when the visitor first uses it.
 * Registered like any wallet, so paying and signing in with it take the real paths.
 */
import { createKeyPairSignerFromPrivateKeyBytes } from "@solana/kit";
import type { Wallets } from "@wallet-standard/app";
import { type PayContext, relayRpc } from "./chain.ts";
import { keypairWallet } from "./keypair-wallet.ts";

const ICON =
  "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAyNCAyNCI+PHJlY3Qgd2lkdGg9IjI0IiBoZWlnaHQ9IjI0IiByeD0iNSIgZmlsbD0iIzEyNzMzYiIvPjxwYXRoIGQ9Ik02IDloMTJ2OEg2eiIgZmlsbD0ibm9uZSIgc3Ryb2tlPSIjZmZmIiBzdHJva2Utd2lkdGg9IjIiLz48L3N2Zz4=";

let registered: Promise<void> | undefined;

/** The demo key's 32 private bytes for this service, made once and then kept. */
const demoSeed = (apiUrl: string): Uint8Array => {
  const key = `docs-chat:demo-wallet:${apiUrl}`;
  const kept = (() => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  })();
  const bytes = kept?.match(/^[0-9a-f]{64}$/)
    ? kept.match(/../g)!.map((pair) => Number.parseInt(pair, 16))
    : undefined;
  if (bytes !== undefined) return Uint8Array.from(bytes);
  const seed = crypto.getRandomValues(new Uint8Array(32));
  try {
    localStorage.setItem(key, Array.from(seed, (byte) => byte.toString(16).padStart(2, "0")).join(""));
  } catch {
    // Storage blocked: a new demo wallet per page.
  }
  return seed;
};

/** Registers the demo wallet once per page, if the service offers the faucet. */
export const registerDemoWallet = (context: PayContext, wallets: Wallets, chain: `${string}:${string}`) => {
  registered ??= (async () => {
    const offered = await fetch(`${context.apiUrl}/api/demo-wallet`).then(
      (res) => res.ok,
      () => false,
    );
    if (!offered) return;
    const signer = await createKeyPairSignerFromPrivateKeyBytes(demoSeed(context.apiUrl));
    const rpc = relayRpc(context.apiUrl);
    wallets.register(
      keypairWallet({
        name: "Demo wallet (local chain)",
        icon: ICON,
        chain,
        signer,
        send: (wire) =>
          rpc.sendTransaction(wire as never, { encoding: "base64", preflightCommitment: "confirmed" }).send(),
        onConnect: async () => {
          const res = await fetch(`${context.apiUrl}/api/demo-wallet`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ address: signer.address }),
          });
          if (!res.ok) throw new Error("The demo wallet could not be funded by the local chain.");
        },
      }),
    );
  })();
  return registered;
};
