/**
 * `npm run pay -- --amount 0.10 [--to ADDRESS] [--rpc URL] [--keypair FILE] [--mint ADDRESS] [--memo TEXT]`
 * Sends USDC (an SPL transferChecked, creating the recipient's token account if missing) and
 * prints the signature on stdout (details on stderr, or one JSON object with --json).
 * Defaults come from the local chain's state file; with --rpc/--keypair/--mint/--to it pays on
 * any cluster (devnet...).
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { type Address, createSolanaRpc, isAddress, type KeyPairSigner } from "@solana/kit";
import { fetchMaybeMint, fetchMaybeToken } from "@solana-program/token";
import * as Result from "effect/Result";
import { formatUnits, parseDecimalUnits, USDC_DECIMALS } from "../../core/payments/money.ts";
import {
  associatedTokenAccount,
  signAndSend,
  usdcTransferInstructions,
  waitForStatus,
} from "../../src/solana/usdc-transfer.ts";
import { loadKeypairFile } from "../localnet/keys.ts";
import { DEFAULT_STATE_FILE, isRunning, readStateFile, serviceStateFile } from "../localnet/state-file.ts";

const USAGE = `usage: npm run pay -- --amount 0.10 [options]
  --amount USDC        amount in USDC, up to 6 decimals (required)
  --to ADDRESS         recipient wallet (default: the local chain's service wallet)
  --rpc URL            JSON-RPC endpoint (default: the local chain's URL)
  --keypair FILE       payer keypair, Solana CLI JSON format (default: the local demo payer)
  --mint ADDRESS       USDC mint (default: the local chain's mint)
  --memo TEXT          add a memo instruction (e.g. the reference the service gave you)
  --state-file PATH    local chain state file (default: that of the service on $PORT or 3000,
                       ${serviceStateFile(3000)}, else ${DEFAULT_STATE_FILE} of npm run localnet)
  --json               print one JSON object instead of the bare signature`;

const usageError = (message: string): never => {
  throw new Error(`${message}\n${USAGE}`);
};

const options = () =>
  parseArgs({
    options: {
      amount: { type: "string" },
      to: { type: "string" },
      rpc: { type: "string" },
      keypair: { type: "string" },
      mint: { type: "string" },
      memo: { type: "string" },
      "state-file": { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean" },
    },
    strict: true,
  }).values;

const addressOption = (value: string | undefined, fallback: Address | undefined, name: string): Address => {
  const chosen =
    value ?? fallback ?? usageError(`--${name} is required when there is no local chain state file`);
  return isAddress(chosen) ? chosen : usageError(`--${name} is not a valid address: ${chosen}`);
};

const loadKeypair = (path: string): Promise<KeyPairSigner> =>
  loadKeypairFile(path, () => usageError(`cannot read keypair file ${path}`));

/** The state file of `npm start` on $PORT (default 3000), else that of `npm run localnet`. */
const defaultStateFile = (): string => {
  const service = serviceStateFile(process.env.PORT ?? 3000);
  return existsSync(service) || !existsSync(DEFAULT_STATE_FILE) ? service : DEFAULT_STATE_FILE;
};

/** An RPC URL fit to print: no credentials, no query string (API keys often travel there). */
const printable = (url: string): string => {
  if (!URL.canParse(url)) return url;
  const { origin, pathname } = new URL(url);
  return `${origin}${pathname === "/" ? "" : pathname}`;
};

/** A network failure to reach `rpcUrl` becomes one sentence naming it (and where it came from). */
const reaching =
  (rpcUrl: string, stateFile: string | undefined) =>
  (cause: unknown): never => {
    // fetch's own failure (refused, no route, DNS) is a TypeError; anything else is another story.
    if (!(cause instanceof TypeError)) throw cause;
    const detail = cause.message;
    const from = stateFile === undefined ? "" : ` (from ${stateFile})`;
    throw new Error(`cannot reach the Solana RPC at ${printable(rpcUrl)}${from}: ${detail}`);
  };

const pay = async () => {
  const args = options();
  if (args.help) return void console.log(USAGE);
  const units = Result.getOrElse(
    parseDecimalUnits(args.amount ?? usageError("--amount is required")),
    (problem) => usageError(`--amount ${args.amount}: ${problem}`),
  );
  if (units <= 0n) usageError("--amount must be more than zero");
  const stateFile = args["state-file"] ?? defaultStateFile();
  const state = await readStateFile(stateFile);
  const rpcUrl =
    args.rpc ?? state?.rpcUrl ?? usageError("--rpc is required when there is no local chain state file");
  if (args.rpc === undefined && state?.pid !== undefined && !isRunning(state.pid)) {
    throw new Error(
      `${stateFile} is stale: the local chain that wrote it (pid ${state.pid}, ${state.rpcUrl}) is no longer running; start the service again (npm start) and use the new state file`,
    );
  }
  const payer =
    args.keypair !== undefined
      ? await loadKeypair(args.keypair)
      : (state?.payer ?? usageError("--keypair is required when there is no local chain state file"));
  const mint = addressOption(args.mint, state?.mint, "mint");
  const to = addressOption(args.to, state?.serviceWallet, "to");
  const rpc = createSolanaRpc(rpcUrl);

  const mintAccount = await fetchMaybeMint(rpc, mint).catch(
    reaching(rpcUrl, args.rpc === undefined ? stateFile : undefined),
  );
  if (!mintAccount.exists) throw new Error(`mint ${mint} does not exist on ${rpcUrl}`);
  if (mintAccount.data.decimals !== USDC_DECIMALS) {
    throw new Error(`mint ${mint} has ${mintAccount.data.decimals} decimals; USDC has ${USDC_DECIMALS}`);
  }
  const tokenProgram = mintAccount.programAddress;
  const sourceAddress = await associatedTokenAccount(payer.address, mint, tokenProgram);
  const source = await fetchMaybeToken(rpc, sourceAddress);
  const balance = source.exists ? source.data.amount : 0n;
  if (balance < units) {
    throw new Error(
      `payer ${payer.address} holds ${formatUnits(balance)} USDC, less than ${formatUnits(units)}`,
    );
  }
  const instructions = await usdcTransferInstructions({
    payer,
    from: payer,
    to,
    mint,
    units,
    decimals: USDC_DECIMALS,
    memo: args.memo,
    tokenProgram,
    source: sourceAddress,
  });
  const signature = await signAndSend(rpc, payer, instructions);
  const err = await waitForStatus(rpc, signature, { commitment: "confirmed" });
  if (err !== null) throw new Error(`transaction ${signature} failed on chain: ${JSON.stringify(err)}`);
  const amount = formatUnits(units);
  if (args.json) {
    console.log(
      JSON.stringify({
        signature,
        amount,
        units: units.toString(),
        from: payer.address,
        to,
        mint,
        rpcUrl,
        memo: args.memo ?? null,
      }),
    );
  } else {
    console.error(`sent ${amount} USDC from ${payer.address} to ${to} (confirmed)`);
    console.log(signature);
  }
};

pay().catch((cause: unknown) => {
  console.error(`pay: ${cause instanceof Error ? cause.message : String(cause)}`);
  process.exit(1);
});
