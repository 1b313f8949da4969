/** A wallet signing in as a client would: the challenge, the SIWS text, its ed25519 signature. */
import { createSignableMessage, getBase58Decoder, type KeyPairSigner } from "@solana/kit";
import { signInMessage } from "../../core/sign-in/siws-text.ts";
import type { TestApp } from "./test-app.ts";

export interface Challenge {
  readonly info: Record<string, string | string[]> & { nonce: string; issuedAt: string };
  readonly supportedChains: ReadonlyArray<{ chainId: string; type: string }>;
}

/** GET /api/session/challenge (or a 402's extension) as a test reads it. */
export const challengeOf = async (t: Pick<TestApp, "call">, from?: string): Promise<Challenge> => {
  const res = await t.call("/api/session/challenge", {}, from);
  if (res.status !== 200) throw new Error(`challenge: ${res.status} ${await res.text()}`);
  return (await res.json()) as Challenge;
};

/** The proof `signer` makes for `challenge`, with `changes` applied to the fields before signing. */
export const proofFor = async (
  signer: KeyPairSigner,
  challenge: Challenge,
  changes: Record<string, unknown> = {},
  signedBy: KeyPairSigner = signer,
) => {
  const fields = {
    ...challenge.info,
    chainId: challenge.supportedChains[0]!.chainId,
    ...changes,
  } as unknown as Parameters<typeof signInMessage>[0];
  const text = signInMessage(fields, signer.address);
  const [signatures] = await signedBy.signMessages([createSignableMessage(new TextEncoder().encode(text))]);
  const signature = getBase58Decoder().decode(signatures![signedBy.address]!);
  return { ...fields, address: signer.address, type: "ed25519", signatureScheme: "siws", signature };
};

/** POST /api/session with a proof. */
export const signInWith = (
  t: Pick<TestApp, "call">,
  proof: unknown,
  from?: string,
  signOutOthers?: boolean,
) =>
  t.call(
    "/api/session",
    {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ proof, ...(signOutOthers === undefined ? {} : { signOutOthers }) }),
    },
    from,
  );

/** The base64 SIGN-IN-WITH-X header of a proof. */
export const signInHeader = (proof: unknown) => btoa(JSON.stringify(proof));
