/**
 * Browser wallets through the Wallet Standard (@wallet-standard/app): Phantom, Solflare, Backpack
 * and any compliant wallet that registers itself, plus, on the local demo chain, our demo wallet.
 * Paying: connect, build the transfer, have the wallet sign and send it (or sign it, and send it
 * through the relay when the wallet can only sign), and return the signature.
 */
import { getBase58Decoder, getBase64Decoder, type Signature } from "@solana/kit";
import { getWallets } from "@wallet-standard/app";
import type { Wallet, WalletAccount } from "@wallet-standard/base";
import { chainId, type PayContext, relayRpc } from "./chain.ts";
import { registerDemoWallet } from "./demo-wallet.ts";
import { buildTransfer } from "./transfer.ts";

const SIGN_AND_SEND = "solana:signAndSendTransaction";
const SIGN = "solana:signTransaction";
const CONNECT = "standard:connect";

interface SolanaFeatures {
  readonly [SIGN_AND_SEND]?: {
    readonly signAndSendTransaction: (
      ...inputs: ReadonlyArray<{ account: WalletAccount; transaction: Uint8Array; chain: string }>
    ) => Promise<ReadonlyArray<{ signature: Uint8Array }>>;
  };
  readonly [SIGN]?: {
    readonly signTransaction: (
      ...inputs: ReadonlyArray<{ account: WalletAccount; transaction: Uint8Array; chain: string }>
    ) => Promise<ReadonlyArray<{ signedTransaction: Uint8Array }>>;
  };
  readonly [CONNECT]?: {
    readonly connect: () => Promise<{ readonly accounts: ReadonlyArray<WalletAccount> }>;
  };
}

export interface WalletChoice {
  readonly name: string;
  readonly icon: string;
  /** Pays `amount` USDC; resolves to the transaction signature once the wallet sent it. */
  readonly pay: (amount: number, progress: (text: string) => void) => Promise<string>;
}

const usable = (wallet: Wallet, chain: string) => {
  const features = wallet.features as SolanaFeatures;
  return (
    wallet.chains.includes(chain as `${string}:${string}`) &&
    features[CONNECT] !== undefined &&
    (features[SIGN_AND_SEND] !== undefined || features[SIGN] !== undefined)
  );
};

const payWith =
  (wallet: Wallet, context: PayContext, chain: string) =>
  async (amount: number, progress: (text: string) => void): Promise<string> => {
    const features = wallet.features as SolanaFeatures;
    progress(`Connecting to ${wallet.name}…`);
    const { accounts } = await features[CONNECT]!.connect();
    const account =
      accounts.find((candidate) => candidate.chains.includes(chain as `${string}:${string}`)) ?? accounts[0];
    if (account === undefined) throw new Error(`${wallet.name} shared no account.`);
    progress("Preparing the transfer…");
    const transaction = await buildTransfer(context, account.address as never, amount);
    progress(`Approve the payment of ${amount.toFixed(2)} USDC in ${wallet.name}…`);
    const signAndSend = features[SIGN_AND_SEND];
    if (signAndSend !== undefined) {
      const [output] = await signAndSend.signAndSendTransaction({ account, transaction, chain });
      if (output === undefined) throw new Error(`${wallet.name} returned no signature.`);
      return getBase58Decoder().decode(output.signature);
    }
    const [signed] = await features[SIGN]!.signTransaction({ account, transaction, chain });
    if (signed === undefined) throw new Error(`${wallet.name} returned no transaction.`);
    const wire = getBase64Decoder().decode(signed.signedTransaction);
    const signature: Signature = await relayRpc(context.apiUrl)
      .sendTransaction(wire as never, { encoding: "base64", preflightCommitment: "confirmed" })
      .send();
    return signature;
  };

/** The wallets that can pay on this network, kept current as wallets register. */
export const findWallets = async (context: PayContext) => {
  const wallets = getWallets();
  const chain = chainId(context.payment.network);
  if (context.payment.network === "localnet") await registerDemoWallet(context, wallets, chain);
  const list = (): ReadonlyArray<WalletChoice> =>
    wallets
      .get()
      .filter((wallet) => usable(wallet, chain))
      .map((wallet) => ({ name: wallet.name, icon: wallet.icon, pay: payWith(wallet, context, chain) }));
  return {
    list,
    onChange: (listener: () => void) => {
      const offRegister = wallets.on("register", listener);
      const offUnregister = wallets.on("unregister", listener);
      return () => {
        offRegister();
        offUnregister();
      };
    },
  };
};
