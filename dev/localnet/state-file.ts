/**
 * The local chain's state file: where it listens and the demo keys, so `npm run pay` and the
 * service find them. It holds secret keys of a throwaway local chain; it is written 0600.
 * It names the process that runs the chain (pid), so a second service never overwrites the
 * file of one still running, and `npm run pay` can tell a stale file (its chain is gone)
 * from a chain that does not answer. Each service keeps its own file, named by its port.
 */
import { existsSync, readdirSync } from "node:fs";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { type Address, isAddress, type KeyPairSigner } from "@solana/kit";
import { type Keypair, keypairJson, signerFromJson } from "./keys.ts";

/** Where `npm run localnet` (a chain on its own) writes. */
export const DEFAULT_STATE_FILE = ".data/localnet.json";

/** Where the demo chain of the service listening on `port` writes (`npm start` on PORT). */
export const serviceStateFile = (port: number | string): string => `.data/localnet-${port}.json`;

/** The state files of every service's demo chain in this folder (any port). */
export const serviceStateFiles = (): ReadonlyArray<string> =>
  existsSync(".data")
    ? readdirSync(".data")
        .filter((name) => /^localnet-\d+\.json$/.test(name))
        .map((name) => `.data/${name}`)
    : [];

export interface LocalnetState {
  readonly rpcUrl: string;
  /** The process running the chain (absent in files written before it was recorded). */
  readonly pid: number | undefined;
  readonly mint: Address;
  readonly decimals: number;
  readonly serviceWallet: Address;
  readonly payer: KeyPairSigner;
  readonly mintAuthority: KeyPairSigner;
  /** The x402 v2 fee payer; absent in files written before it existed. */
  readonly feePayer: KeyPairSigner | undefined;
}

/** Writes the state file (creating its folder). */
export const writeStateFile = async (
  path: string,
  state: {
    rpcUrl: string;
    mint: Address;
    decimals: number;
    serviceWallet: Address;
    payer: Keypair;
    mintAuthority: Keypair;
    feePayer: Keypair;
  },
): Promise<void> => {
  await mkdir(dirname(path), { recursive: true });
  const body = {
    network: "localnet",
    pid: process.pid,
    rpcUrl: state.rpcUrl,
    mint: state.mint,
    decimals: state.decimals,
    serviceWallet: state.serviceWallet,
    payerAddress: state.payer.signer.address,
    mintAuthorityAddress: state.mintAuthority.signer.address,
    // Solana CLI keypair format (64-byte lists): `jq .payer` gives a usable keypair file.
    payer: keypairJson(state.payer),
    mintAuthority: keypairJson(state.mintAuthority),
    feePayerAddress: state.feePayer.signer.address,
    feePayer: keypairJson(state.feePayer),
  };
  await writeFile(path, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
};

const field = (body: Record<string, unknown>, key: string): string => {
  const value = body[key];
  if (typeof value !== "string") throw new Error(`state file: "${key}" is missing`);
  return value;
};

const addressField = (body: Record<string, unknown>, key: string): Address => {
  const value = field(body, key);
  if (!isAddress(value)) throw new Error(`state file: "${key}" is not an address`);
  return value;
};

/** Reads and checks a state file; undefined when there is none. */
export const readStateFile = async (path: string): Promise<LocalnetState | undefined> => {
  const text = await readFile(path, "utf8").catch((cause: NodeJS.ErrnoException) => {
    if (cause.code === "ENOENT") return undefined;
    throw cause;
  });
  if (text === undefined) return undefined;
  const body = JSON.parse(text) as Record<string, unknown>;
  return {
    rpcUrl: field(body, "rpcUrl"),
    pid: typeof body.pid === "number" ? body.pid : undefined,
    mint: addressField(body, "mint"),
    decimals: typeof body.decimals === "number" ? body.decimals : 6,
    serviceWallet: addressField(body, "serviceWallet"),
    payer: await signerFromJson(body.payer),
    mintAuthority: await signerFromJson(body.mintAuthority),
    feePayer: body.feePayer === undefined ? undefined : await signerFromJson(body.feePayer),
  };
};

/** Whether process `pid` is running (signal 0 checks without signalling; EPERM: it runs, as someone else). */
export const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** The pid of another running process that owns the file at `path`, if any. */
export const liveOwnerOf = async (path: string): Promise<number | undefined> => {
  const state = await readStateFile(path).catch(() => undefined);
  const pid = state?.pid;
  return pid !== undefined && pid !== process.pid && isRunning(pid) ? pid : undefined;
};

/** Deletes the file if this process wrote it (a later chain may have taken the path over). */
export const removeOwnStateFile = async (path: string): Promise<void> => {
  const state = await readStateFile(path).catch(() => undefined);
  if (state?.pid === process.pid) await rm(path, { force: true });
};
