/**
 * The sponsor policy and the scheme's static path on real, signed transactions (no chain: the
 * checks run before anything is signed or sent): what one payment may cost the fee payer, the
 * compute budget it needs, the Lighthouse assertions Phantom and Solflare add, the memos, and
 * the signer set.
 */
import { describe, expect, test } from "bun:test";
import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import * as Result from "effect/Result";
import { checkExactTransaction } from "../../src/payments/v2/exact-transaction.ts";
import {
  DEFAULT_SPONSOR_POLICY,
  LAMPORTS_PER_SIGNATURE,
  sponsorFeeOf,
} from "../../src/payments/v2/sponsor-policy.ts";
import {
  computeUnitLimit,
  computeUnitPrice,
  memoInstruction,
  OFFICIAL_BUDGET,
  requestHeapFrame,
  transferFor,
} from "../support/x402-v2.ts";

const LIGHTHOUSE = "L2TExMFKdjpN9kozasaurPirfHy9P8sbXoAN1qA3S95" as Address;
const MINT = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";

const feePayer = await generateKeyPairSigner();
const payer = await generateKeyPairSigner();
const payTo = await generateKeyPairSigner();
const requirements = {
  scheme: "exact",
  network: "solana:test" as const,
  amount: "10000",
  asset: MINT,
  payTo: payTo.address,
  maxTimeoutSeconds: 60,
  extra: { feePayer: feePayer.address },
};
const transfer = await transferFor({ requirements, payer });
const memo = memoInstruction("x402:pay_test");

/** A Lighthouse assertion on the payer's own wallet, as Phantom adds them (its data is opaque here). */
const assertion = (account: KeyPairSigner | Address = payer.address): Instruction => ({
  programAddress: LIGHTHOUSE,
  accounts: [{ address: typeof account === "string" ? account : account.address, role: 0 }],
  data: new Uint8Array([0x0f, 1, 2, 3]),
});

const wire = async (instructions: ReadonlyArray<Instruction>) => {
  const blockhash = getBase58Decoder().decode(crypto.getRandomValues(new Uint8Array(32))) as Blockhash;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(feePayer.address, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight: 1n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getBase64EncodedWireTransaction(await partiallySignTransactionMessageWithSigners(message));
};

/** "ok" with the sponsor's worst case, or the refusal's reason. */
const verdict = async (instructions: ReadonlyArray<Instruction>, policy = DEFAULT_SPONSOR_POLICY) => {
  const checked = await checkExactTransaction(await wire(instructions), feePayer.address, policy);
  return Result.isSuccess(checked) ? `ok ${checked.success.sponsorFee}` : checked.failure.reason;
};

describe("what one payment may cost the fee payer", () => {
  test("5,000 lamports per signature plus limit x price in micro-lamports, rounded up", () => {
    expect(LAMPORTS_PER_SIGNATURE).toBe(5_000n);
    expect(sponsorFeeOf(2, 20_000n, 1n)).toBe(10_001n); // the official client
    expect(sponsorFeeOf(2, 1_000n, 5_000_000n)).toBe(15_000n);
    expect(sponsorFeeOf(2, 200_000n, 5_000_000n)).toBe(1_010_000n);
    expect(sponsorFeeOf(2, 0n, 5_000_000n)).toBe(10_000n);
  });

  test("the official client's budget passes; at the bound passes; one lamport over does not", async () => {
    expect(await verdict([...OFFICIAL_BUDGET, transfer, memo])).toBe("ok 10001");
    expect(await verdict([computeUnitLimit(1_000), computeUnitPrice(5_000_000n), transfer, memo])).toBe(
      "ok 15000",
    );
    expect(await verdict([computeUnitLimit(1_001), computeUnitPrice(5_000_000n), transfer, memo])).toBe(
      "exact-compute-price-too-high",
    );
    // A tighter operator's bound refuses what the default allows.
    expect(await verdict([...OFFICIAL_BUDGET, transfer, memo], { maxFeeLamports: 10_000n, mints: [] })).toBe(
      "exact-compute-price-too-high",
    );
  });

  test("exactly one limit, at most one price, nothing else from the compute-budget program", async () => {
    expect(await verdict([computeUnitLimit(20_000), transfer, memo])).toBe("ok 10000");
    expect(await verdict([computeUnitPrice(1n), transfer, memo])).toBe("exact-compute-budget-invalid");
    expect(await verdict([transfer, memo])).toBe("exact-compute-budget-invalid");
    expect(await verdict([computeUnitLimit(1), computeUnitLimit(1), transfer, memo])).toBe(
      "exact-compute-budget-invalid",
    );
    expect(await verdict([...OFFICIAL_BUDGET, computeUnitPrice(1n), transfer, memo])).toBe(
      "exact-compute-budget-invalid",
    );
    expect(await verdict([...OFFICIAL_BUDGET, requestHeapFrame(32 * 1024), transfer, memo])).toBe(
      "exact-compute-budget-invalid",
    );
    expect(await verdict([computeUnitLimit(20_000), computeUnitPrice(5_000_001n), transfer, memo])).toBe(
      "exact-compute-price-too-high",
    );
  });
});

describe("the scheme's static path: wallets' Lighthouse assertions and memos", () => {
  test("Phantom's three assertions and Solflare's two are allowed beside the memo", async () => {
    expect(await verdict([...OFFICIAL_BUDGET, transfer, memo, assertion(), assertion(), assertion()])).toBe(
      "ok 10001",
    );
    expect(await verdict([...OFFICIAL_BUDGET, transfer, assertion(), memo, assertion()])).toBe("ok 10001");
  });

  test("at most four memo or Lighthouse instructions, seven in all", async () => {
    const four = [assertion(), assertion(), assertion(), memo];
    expect(await verdict([...OFFICIAL_BUDGET, transfer, ...four])).toBe("ok 10001");
    expect(await verdict([...OFFICIAL_BUDGET, transfer, ...four, assertion()])).toBe(
      "exact-instruction-forbidden",
    );
  });

  test("the memos are all reported, in order, for the caller's extra.memo rule", async () => {
    const checked = await checkExactTransaction(
      await wire([...OFFICIAL_BUDGET, transfer, memo, memoInstruction("other")]),
      feePayer.address,
      DEFAULT_SPONSOR_POLICY,
    );
    expect(Result.isSuccess(checked) && checked.success.memos).toEqual(["x402:pay_test", "other"]);
  });

  test("an assertion naming the fee payer misuses it; one naming another signer adds a signer", async () => {
    expect(await verdict([...OFFICIAL_BUDGET, transfer, memo, assertion(feePayer.address)])).toBe(
      "exact-fee-payer-misused",
    );
    const stranger = await generateKeyPairSigner();
    expect(
      await verdict([
        ...OFFICIAL_BUDGET,
        transfer,
        memo,
        { programAddress: LIGHTHOUSE, accounts: [{ address: stranger.address, role: 2, signer: stranger }] },
      ] as ReadonlyArray<Instruction>),
    ).toBe("exact-signers-invalid");
  });

  test("an assertion may name only the payer's wallet and the token account it pays from", async () => {
    const [source] = await findAssociatedTokenPda({
      owner: payer.address,
      mint: MINT as Address,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    expect(await verdict([...OFFICIAL_BUDGET, transfer, memo, assertion(source)])).toBe("ok 10001");
    // A clock or another account's data could hold in our simulation and fail on chain, at our cost.
    const clock: Instruction = { programAddress: LIGHTHOUSE, data: new Uint8Array([0x0f]) };
    expect(await verdict([...OFFICIAL_BUDGET, transfer, memo, clock])).toBe("exact-assertion-forbidden");
    expect(await verdict([...OFFICIAL_BUDGET, transfer, memo, assertion(payTo.address)])).toBe(
      "exact-assertion-forbidden",
    );
  });

  test("the transfer comes from the authority's own token account (nobody can hold another's)", async () => {
    const stranger = await generateKeyPairSigner();
    const [theirs] = await findAssociatedTokenPda({
      owner: stranger.address,
      mint: MINT as Address,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const fromTheirs = await transferFor({ requirements, payer }, { source: theirs });
    expect(await verdict([...OFFICIAL_BUDGET, fromTheirs, memo])).toBe("exact-transfer-mismatch");
  });

  test("a smart wallet's program is named as such, an unknown program is forbidden", async () => {
    const wrapped: Instruction = {
      programAddress: "swigypWHEksbC64pWKwah1WTeh9JXwx8H1rJHLdbQMB" as Address,
      data: new Uint8Array([1]),
    };
    expect(await verdict([...OFFICIAL_BUDGET, wrapped, memo])).toBe("exact-smart-wallet-unsupported");
    const unknown: Instruction = { programAddress: payTo.address, data: new Uint8Array([1]) };
    expect(await verdict([...OFFICIAL_BUDGET, transfer, memo, unknown])).toBe("exact-instruction-forbidden");
  });
});
