/**
 * A real local Solana chain for tests (LiteSVM behind JSON-RPC on a free loopback port) and
 * helpers that build, sign and send real transactions through its RPC, resolving to the
 * signature once the chain has executed them (visible at `confirmed` after the confirmation
 * delay, 0 by default).
 *
 *   const chain = await startTestChain();            // afterAll(() => chain.stop())
 *   const sig = await chain.sendUsdc({ units: 50_000n, memo: "ref" }); // 0.05 USDC to the service wallet
 */
import {
  type Address,
  createSolanaRpc,
  getBase58Decoder,
  type Instruction,
  type KeyPairSigner,
  lamports,
  type Signature,
} from "@solana/kit";
import { getCreateAccountInstruction, getTransferSolInstruction } from "@solana-program/system";
import {
  getInitializeAccount3Instruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { type Localnet, type LocalnetOptions, startLocalnet } from "../../dev/localnet/index.ts";
import { newKeypair } from "../../dev/localnet/keys.ts";
import {
  associatedTokenAccount,
  signAndSend,
  usdcTransferInstructions,
} from "../../src/solana/usdc-transfer.ts";
import { freePort } from "./free-port.ts";

const USDC_DECIMALS = 6;
const TOKEN_ACCOUNT_SIZE = 165;

type ChainRpc = ReturnType<typeof createSolanaRpc>;

/** `getTransaction` as the payment verifier asks for it: jsonParsed, at confirmed, v0 allowed. */
export const parsedTransaction = (rpc: ChainRpc, signature: Signature) =>
  rpc
    .getTransaction(signature, {
      encoding: "jsonParsed",
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    })
    .send();

/** Tokens of `mint` held by `owner`'s associated token account (0 when it has none). */
export const tokenBalance = async (rpc: ChainRpc, mint: Address, owner: Address): Promise<bigint> => {
  const ata = await associatedTokenAccount(owner, mint);
  const reply = await rpc
    .getTokenAccountBalance(ata)
    .send()
    .catch(() => undefined);
  return reply === undefined ? 0n : BigInt(reply.value.amount);
};

/** The address of a new keypair, owning nothing on chain yet. */
export const freshAddress = async (): Promise<Address> => (await newKeypair()).signer.address;

export interface UsdcSend {
  /** Receiving wallet (owner); default: the service wallet. */
  readonly to?: Address;
  readonly units: bigint;
  readonly memo?: string;
  /** Sender (fee payer and token owner); default: the demo payer. */
  readonly from?: KeyPairSigner;
  /** Make the transaction look this old (its block time is shifted back). */
  readonly ageMs?: number;
}

/** Starts a local chain on a free port; see the file comment. */
export const startTestChain = async (options: Omit<LocalnetOptions, "port" | "stateFile"> = {}) => {
  const localnet: Localnet = await startLocalnet({ ...options, port: await freePort() });
  const rpc = createSolanaRpc(localnet.url);
  let otherMint: Address | undefined;

  const sendUsdc = async ({
    to = localnet.serviceWallet,
    units,
    memo,
    from = localnet.payer,
    ageMs,
  }: UsdcSend) => {
    const instructions = await usdcTransferInstructions({
      payer: from,
      from,
      to,
      mint: localnet.mint,
      units,
      decimals: USDC_DECIMALS,
      memo,
    });
    if (ageMs === undefined) return signAndSend(rpc, from, instructions);
    localnet.setClockOffsetMs(-ageMs);
    try {
      return await signAndSend(rpc, from, instructions);
    } finally {
      localnet.setClockOffsetMs(0);
    }
  };

  /** A new wallet funded with SOL (default 10) and test USDC (default 100). */
  const fundPayer = async (funds: { lamports?: bigint; usdcUnits?: bigint } = {}): Promise<KeyPairSigner> => {
    const { signer } = await newKeypair();
    await localnet.airdrop(signer.address, funds.lamports ?? 10_000_000_000n);
    const usdc = funds.usdcUnits ?? 100_000_000n;
    if (usdc > 0n) await localnet.mintTokens(signer.address, usdc);
    return signer;
  };

  return {
    localnet,
    rpc,
    url: localnet.url,
    mint: localnet.mint,
    serviceWallet: localnet.serviceWallet,
    payer: localnet.payer,
    sendUsdc,
    fundPayer,
    /** A plain SOL transfer (no token moves). */
    sendSol: (to: Address = localnet.serviceWallet, amount = 1_000_000n, from = localnet.payer) =>
      signAndSend(rpc, from, [
        getTransferSolInstruction({ source: from, destination: to, amount: lamports(amount) }),
      ]),
    /** `units` of a second 6-decimal mint (created once) to `to`'s associated token account. */
    sendOtherMint: async (to: Address = localnet.serviceWallet, units = 50_000n) => {
      otherMint ??= await localnet.createMint(localnet.mintAuthority, USDC_DECIMALS);
      await localnet.mintTokens(localnet.payer.address, units, otherMint);
      const instructions = await usdcTransferInstructions({
        payer: localnet.payer,
        from: localnet.payer,
        to,
        mint: otherMint,
        units,
        decimals: USDC_DECIMALS,
      });
      return signAndSend(rpc, localnet.payer, instructions);
    },
    /** A USDC transfer that fails on chain (more than the sender holds) yet lands with a fee and `meta.err`. */
    sendFailingUsdc: async (send: Partial<UsdcSend> = {}) => {
      const from = send.from ?? localnet.payer;
      const instructions = await usdcTransferInstructions({
        payer: from,
        from,
        to: send.to ?? localnet.serviceWallet,
        mint: localnet.mint,
        units: send.units ?? 10n ** 15n,
        decimals: USDC_DECIMALS,
        memo: send.memo,
      });
      return signAndSend(rpc, from, instructions, { skipPreflight: true });
    },
    /**
     * One transaction with several USDC transfers to `to`: into its associated token account, or
     * with `separateAccount` the second part into another token account `to` owns.
     */
    sendUsdcSplit: async (split: {
      to?: Address;
      parts: ReadonlyArray<bigint>;
      memo?: string;
      separateAccount?: boolean;
    }) => {
      const to = split.to ?? localnet.serviceWallet;
      const from = localnet.payer;
      const [first = 0n, ...rest] = split.parts;
      const base = await usdcTransferInstructions({
        payer: from,
        from,
        to,
        mint: localnet.mint,
        units: first,
        decimals: USDC_DECIMALS,
        memo: split.memo,
      });
      const source = await associatedTokenAccount(from.address, localnet.mint);
      let destination = await associatedTokenAccount(to, localnet.mint);
      const extra: Array<Instruction> = [];
      if (split.separateAccount === true) {
        const account = (await newKeypair()).signer;
        const rent = await rpc.getMinimumBalanceForRentExemption(BigInt(TOKEN_ACCOUNT_SIZE)).send();
        destination = account.address;
        extra.push(
          getCreateAccountInstruction({
            payer: from,
            newAccount: account,
            lamports: rent,
            space: TOKEN_ACCOUNT_SIZE,
            programAddress: TOKEN_PROGRAM_ADDRESS,
          }),
          getInitializeAccount3Instruction({ account: account.address, mint: localnet.mint, owner: to }),
        );
      }
      const transfers = rest.map((units) =>
        getTransferCheckedInstruction({
          source,
          mint: localnet.mint,
          destination,
          authority: from,
          amount: units,
          decimals: USDC_DECIMALS,
        }),
      );
      return signAndSend(rpc, from, [...extra, ...base, ...transfers]);
    },
    /** Test USDC held by `owner`'s associated token account (0 when it has none). */
    usdcBalance: (owner: Address) => tokenBalance(rpc, localnet.mint, owner),
    /** The transaction as the payment verifier reads it (null until confirmed). */
    parsedTransaction: (signature: Signature) => parsedTransaction(rpc, signature),
    freshAddress,
    /** A well-formed signature no transaction has. */
    randomSignature: (): Signature =>
      getBase58Decoder().decode(crypto.getRandomValues(new Uint8Array(64))) as Signature,
    stop: () => localnet.stop(),
  };
};

export type TestChain = Awaited<ReturnType<typeof startTestChain>>;

/** The service's variables for taking payments on this chain (CHAIN_NETWORK=localnet). */
export const chainEnv = (chain: {
  readonly url: string;
  readonly mint: string;
  readonly serviceWallet: string;
}) => ({
  CHAIN_NETWORK: "localnet",
  SOLANA_RPC_URL: chain.url,
  USDC_MINT_ADDRESS: chain.mint,
  PAYMENT_WALLET_ADDRESS: chain.serviceWallet,
});

/**
 * A test app's `chain` option on this chain: the real chain reader (ChainSolana over its RPC,
 * short retry delays) and the service's mint and wallet, as every paid e2e test uses it.
 */
export const chainReaderOf = (chain: Pick<TestChain, "url" | "mint" | "serviceWallet">) => ({
  layer: ChainSolana.layer({ rpcUrl: chain.url, baseDelayMs: 20 }),
  usdcMint: chain.mint,
  wallet: chain.serviceWallet,
});
