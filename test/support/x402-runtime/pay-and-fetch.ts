/**
 * What the runtime tests run under Node, Deno and Chromium: the automatic client, with nothing
 * but the library's own imports, pays `url` with the given keypair and reports what it got.
 */
import { createKeyPairSignerFromBytes } from "@solana/kit";
import { wrapFetchWithPayment } from "../../../src/payments/client/payment-client.ts";

export interface PayInput {
  readonly url: string;
  readonly rpcUrl: string;
  /** 64 bytes, Solana CLI keypair format. */
  readonly secretKey: ReadonlyArray<number>;
}

export const payAndFetch = async (input: PayInput) => {
  const signer = await createKeyPairSignerFromBytes(Uint8Array.from(input.secretKey));
  const payingFetch = wrapFetchWithPayment(
    { signer, network: "chain-devnet", rpcUrl: input.rpcUrl },
    { AllowLocal: true },
  );
  const response = await payingFetch(input.url);
  return {
    status: response.status,
    receipt: response.headers.get("X-Payment-Receipt"),
    body: await response.text(),
  };
};
