/**
 * x402 v2 clients for tests: the official one (`@x402/fetch` with `@x402/svm`'s exact scheme,
 * pointed at the local chain), and a hand builder of PAYMENT-SIGNATURE headers whose
 * transaction tests can bend in every way the scheme forbids, signed for real.
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransaction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Transaction,
} from "@solana/kit";
import {
  findAssociatedTokenPda,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import type { PaymentRequired, PaymentRequirements, SettleResponse } from "@x402/core/types";
import { appendPaymentIdentifierToExtensions } from "@x402/extensions/payment-identifier";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { memoryLogger } from "../../src/observability/log.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { type FacilitatorSetup, startFacilitator } from "../../src/payments/v2/facilitator.ts";
import { createFeePayer } from "../../src/payments/v2/fee-payer.ts";
import { DEFAULT_SPONSOR_POLICY } from "../../src/payments/v2/sponsor-policy.ts";
import { watchSponsor } from "../../src/payments/v2/sponsor-watch.ts";
import { startTestChain } from "./localnet.ts";

export interface OfficialWallet {
  readonly signer: KeyPairSigner;
  readonly rpcUrl: string;
  /** The local test USDC: not a default asset of the client, so it is allowed explicitly (at most 1 USDC). */
  readonly mint: Address;
}

/** The official x402 client for a wallet (Solana exact scheme, spend controls on the test mint). */
export const officialClient = (wallet: OfficialWallet) => {
  const client = new x402Client();
  client.register("solana:*", new ExactSvmScheme(wallet.signer, { rpcUrl: wallet.rpcUrl }));
  client.setSpendControls({
    allowedAssets: [{ network: "solana:*", asset: wallet.mint, maxAmountPerPayment: "1000000" }],
  });
  return client;
};

/** The official fetch client paying with `wallet` (over `transport`, default the global fetch). */
export const officialFetch = (wallet: OfficialWallet, transport: typeof fetch = fetch) =>
  wrapFetchWithPayment(transport, officialClient(wallet));

/** The official client's payload for a 402 (what it would send), as its header value. */
/**
 * The official client's PAYMENT-SIGNATURE for a 402. With `ownBlockhash` it ignores the offer's
 * blockhash hint and fetches its own, as a client that re-signs later would: each call is then a
 * different transaction (with the hint, signing the same offer twice gives the same one).
 */
export const officialPaymentHeader = async (
  wallet: OfficialWallet,
  response: Response,
  { ownBlockhash = false }: { readonly ownBlockhash?: boolean } = {},
) => {
  const client = officialClient(wallet);
  const required = paymentRequiredOf(response);
  const offer = ownBlockhash
    ? {
        ...required,
        accepts: required.accepts.map(({ extra, ...accepted }) => {
          const { recentBlockhash: _hint, lastValidBlockHeight: _height, ...rest } = extra ?? {};
          return { ...accepted, extra: rest };
        }),
      }
    : required;
  const payload = await client.createPaymentPayload(offer);
  return encodePaymentSignatureHeader(payload);
};

export const paymentRequiredOf = (response: Response): PaymentRequired => {
  const header = response.headers.get("PAYMENT-REQUIRED");
  if (header === null) throw new Error(`no PAYMENT-REQUIRED header (status ${response.status})`);
  return decodePaymentRequiredHeader(header);
};

export const settlementOf = (response: Response): SettleResponse | undefined => {
  const header = response.headers.get("PAYMENT-RESPONSE");
  return header === null ? undefined : decodePaymentResponseHeader(header);
};

const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address;
const COMPUTE_BUDGET = "ComputeBudget111111111111111111111111111111" as Address;

export const memoInstruction = (text: string): Instruction => ({
  programAddress: MEMO_PROGRAM,
  accounts: [],
  data: new TextEncoder().encode(text),
});

/** SetComputeUnitPrice (micro-lamports) or SetComputeUnitLimit. */
export const computeUnitPrice = (microLamports: bigint): Instruction => {
  const data = new Uint8Array(9);
  data[0] = 3;
  new DataView(data.buffer).setBigUint64(1, microLamports, true);
  return { programAddress: COMPUTE_BUDGET, data };
};
export const computeUnitLimit = (units: number): Instruction => {
  const data = new Uint8Array(5);
  data[0] = 2;
  new DataView(data.buffer).setUint32(1, units, true);
  return { programAddress: COMPUTE_BUDGET, data };
};

/** RequestHeapFrame: a compute-budget instruction the sponsor policy refuses. */
export const requestHeapFrame = (bytes: number): Instruction => {
  const data = new Uint8Array(5);
  data[0] = 1;
  new DataView(data.buffer).setUint32(1, bytes, true);
  return { programAddress: COMPUTE_BUDGET, data };
};

/**
 * A tamper that rebuilds the signed message with one more account of a fresh key that no
 * instruction uses (as a signer, or not), then signs it again: the bytes a client could send,
 * which decompiling would hide (it drops unused accounts) but the fee payer's signature covers.
 */
export const withExtraAccount = async (payer: KeyPairSigner, { signer }: { readonly signer: boolean }) => {
  const extra = await generateKeyPairSigner();
  return async (transaction: Transaction): Promise<Transaction> => {
    const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    if (compiled.version !== 0) throw new Error("a v0 message was expected");
    const { header, staticAccounts } = compiled;
    const at = signer ? header.numSignerAccounts : staticAccounts.length;
    const shift = (index: number) => (index >= at ? index + 1 : index);
    const rebuilt = {
      ...compiled,
      header: signer
        ? {
            ...header,
            numSignerAccounts: header.numSignerAccounts + 1,
            numReadonlySignerAccounts: header.numReadonlySignerAccounts + 1,
          }
        : { ...header, numReadonlyNonSignerAccounts: header.numReadonlyNonSignerAccounts + 1 },
      staticAccounts: [...staticAccounts.slice(0, at), extra.address, ...staticAccounts.slice(at)],
      instructions: compiled.instructions.map((instruction) => ({
        ...instruction,
        programAddressIndex: shift(instruction.programAddressIndex),
        accountIndices: instruction.accountIndices?.map(shift),
      })),
    };
    const messageBytes = getCompiledTransactionMessageEncoder().encode(
      rebuilt,
    ) as Transaction["messageBytes"];
    const signers = rebuilt.staticAccounts.slice(0, rebuilt.header.numSignerAccounts);
    const unsigned: Transaction = {
      messageBytes,
      signatures: Object.fromEntries(signers.map((address) => [address, null])) as Transaction["signatures"],
    };
    return partiallySignTransaction(signer ? [payer.keyPair, extra.keyPair] : [payer.keyPair], unsigned);
  };
};

export interface Honest {
  readonly requirements: PaymentRequirements;
  readonly payer: KeyPairSigner;
}

/** The transfer an honest client makes for `requirements`, with parts replaced. */
export const transferFor = async (
  { requirements, payer }: Honest,
  change: { amount?: bigint; mint?: Address; to?: Address; authority?: KeyPairSigner; source?: Address } = {},
): Promise<Instruction> => {
  const mint = change.mint ?? (requirements.asset as Address);
  const owner = change.authority ?? payer;
  const [source] = await findAssociatedTokenPda({
    owner: owner.address,
    mint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  const [destination] = await findAssociatedTokenPda({
    owner: change.to ?? (requirements.payTo as Address),
    mint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  return getTransferCheckedInstruction({
    source: change.source ?? source,
    mint,
    destination,
    authority: owner,
    amount: change.amount ?? BigInt(requirements.amount),
    decimals: 6,
  });
};

/** What the official client sets: 20,000 units at 1 micro-lamport. */
export const OFFICIAL_BUDGET: ReadonlyArray<Instruction> = [computeUnitLimit(20_000), computeUnitPrice(1n)];

/**
 * A PAYMENT-SIGNATURE header for `requirements` carrying `instructions`, signed by their signers.
 * Without a compute-budget instruction among them, the official client's budget comes first
 * (`bare: true` sends exactly `instructions`).
 */
export const exactHeader = async (
  requirements: PaymentRequirements,
  given: ReadonlyArray<Instruction>,
  options: {
    rpcUrl: string;
    blockhash?: Blockhash;
    tamper?: (transaction: Transaction) => Transaction | Promise<Transaction>;
    bare?: boolean;
  },
) => {
  const budgeted = given.some((instruction) => instruction.programAddress === COMPUTE_BUDGET);
  const instructions = options.bare === true || budgeted ? given : [...OFFICIAL_BUDGET, ...given];
  const { value: latest } = await createSolanaRpc(options.rpcUrl).getLatestBlockhash().send();
  const lifetime = options.blockhash === undefined ? latest : { ...latest, blockhash: options.blockhash };
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer((requirements.extra as { feePayer: Address }).feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await partiallySignTransactionMessageWithSigners(message);
  const transaction = options.tamper === undefined ? signed : await options.tamper(signed);
  return encodePaymentSignatureHeader({
    x402Version: 2,
    accepted: requirements,
    payload: { transaction: getBase64EncodedWireTransaction(transaction) },
  });
};

/**
 * A facilitator that never reaches a chain (its RPC is a closed port): for tests of what is
 * offered and who may call, never of settling. Its fee payer's balance reads as `lamports`
 * against `floor` (default: offered).
 */
export const offlineFacilitator = async ({
  lamports = 0n,
  floor = 0n,
}: {
  readonly lamports?: bigint;
  readonly floor?: bigint;
} = {}): Promise<ExactFacilitator> => {
  const sponsor = watchSponsor({ read: async () => lamports, floor, logger: memoryLogger().logger });
  await sponsor.refresh();
  return {
    feePayer: createFeePayer(await generateKeyPairSigner(), "http://127.0.0.1:9/unused"),
    network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
    policy: DEFAULT_SPONSOR_POLICY,
    sponsor,
  };
};

/** A fresh local chain (the service wallet's token account made) and our facilitator on its fee payer, as the x402 v2 e2e tests start them. */
export const startChainWithFacilitator = async (setup: Partial<FacilitatorSetup> = {}) => {
  const chain = await startTestChain();
  await chain.localnet.mintTokens(chain.serviceWallet, 0n);
  const facilitator = await startFacilitator({
    rpcUrl: chain.url,
    feePayer: chain.localnet.feePayer,
    logger: memoryLogger().logger,
    ...setup,
  });
  return { chain, facilitator };
};

/**
 * The official client's PAYMENT-SIGNATURE for a 402, named with payment identifier `id`
 * through `@x402/extensions`' client helper (what an agent that wants retry safety sends).
 */
export const namedPaymentHeader = async (wallet: OfficialWallet, response: Response, id: string) =>
  encodePaymentSignatureHeader(
    await namedClient(wallet, id).createPaymentPayload(paymentRequiredOf(response)),
  );

/** The official client naming its payments with `id` (the helper adds it where the 402 declares the extension). */
export const namedClient = (wallet: OfficialWallet, id: string) =>
  officialClient(wallet).onBeforePaymentCreation(async ({ paymentRequired }) => {
    paymentRequired.extensions = appendPaymentIdentifierToExtensions(paymentRequired.extensions ?? {}, id);
  });
