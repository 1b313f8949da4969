/**
 * A Solana Pay transfer request for a phone wallet: a `solana:` URL (recipient, amount,
 * spl-token, a fresh reference, our memo), its QR code, and the detection of the payment by its
 * reference (getSignaturesForAddress through the relay), as the Solana Pay spec describes.
 */
import { address, getBase58Decoder } from "@solana/kit";
import { renderSVG } from "uqr";
import { type PayContext, relayRpc } from "./chain.ts";
import { usdcText, usdcUnits } from "./transfer.ts";

const POLL_MS = 2_000;
const LABEL = "Docs chat";

/** A random 32-byte public key: the transfer's reference, read-only in the wallet's instruction. */
const newReference = () => address(getBase58Decoder().decode(crypto.getRandomValues(new Uint8Array(32))));

/** The transfer request URL of the Solana Pay specification. */
export const transferRequestUrl = (context: PayContext, amount: number, reference: string): string => {
  const query = new URLSearchParams({
    amount: usdcText(amount),
    "spl-token": context.payment.usdcMint,
    reference,
    label: LABEL,
    message: `${usdcUnits(amount) / usdcUnits(Number(context.payment.pricePerQuery ?? "0.001"))} questions`,
    memo: context.payment.memo,
  });
  return `solana:${context.payment.recipient}?${query.toString().replace(/\+/g, "%20")}`;
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

export const solanaPayRequest = (context: PayContext, amount: number) => {
  const reference = newReference();
  const url = transferRequestUrl(context, amount, reference);
  const rpc = relayRpc(context.apiUrl);
  return {
    url,
    reference,
    svg: renderSVG(url, { border: 2, pixelSize: 6 }),
    /** Polls until a successful transaction carries the reference; undefined once aborted. */
    waitForSignature: async (signal: AbortSignal): Promise<string | undefined> => {
      while (!signal.aborted) {
        const found = await rpc
          .getSignaturesForAddress(reference, { limit: 5, commitment: "confirmed" })
          .send({ abortSignal: signal })
          .catch(() => []);
        const paid = found.find((entry) => entry.err === null);
        if (paid !== undefined) return paid.signature;
        await sleep(POLL_MS, signal);
      }
      return undefined;
    },
  };
};
