/**
 * "Use my credits": a wallet that paid before proves it is the same wallet (Sign-In With Solana,
 * x402 sign-in-with-x). Through the Wallet Standard: `solana:signIn` where the wallet has it,
 * else `solana:signMessage` of the SIWS text. The service rebuilds the text from the proof's
 * fields and checks the signature over it, so a wallet whose signIn writes a different text
 * (its own chain naming, say) is asked to sign our text with signMessage instead.
 */
import { getBase58Decoder } from "@solana/kit";
import type { SolanaSignInFeature, SolanaSignMessageFeature } from "@solana/wallet-standard-features";
import { getWallets } from "@wallet-standard/app";
import type { Wallet, WalletAccount } from "@wallet-standard/base";
import type { StandardConnectFeature } from "@wallet-standard/features";
import { signInMessage } from "../../../core/sign-in/siws-text.ts";
import type { SignInChallenge } from "../chat-api.ts";
import { chainId, type PayContext } from "../pay/chain.ts";
import { registerDemoWallet } from "../pay/demo-wallet.ts";

type Features = Partial<StandardConnectFeature & SolanaSignInFeature & SolanaSignMessageFeature>;

export interface SignInChoice {
  readonly name: string;
  readonly icon: string;
  /** Signs the challenge with the wallet: the proof POST /api/session takes. */
  readonly prove: (
    challenge: SignInChallenge,
    progress: (text: string) => void,
  ) => Promise<Record<string, unknown>>;
}

const base58 = (bytes: Uint8Array) => getBase58Decoder().decode(bytes);

const canSignIn = (wallet: Wallet, chain: string) => {
  const features = wallet.features as Features;
  return (
    wallet.chains.includes(chain as `${string}:${string}`) &&
    features["standard:connect"] !== undefined &&
    (features["solana:signIn"] !== undefined || features["solana:signMessage"] !== undefined)
  );
};

/** The signature over `text`: signIn when its text is ours, else signMessage. */
const signatureOver = async (
  wallet: Wallet,
  account: WalletAccount,
  text: string,
  input: Record<string, string | readonly string[]>,
) => {
  const features = wallet.features as Features;
  const signIn = features["solana:signIn"];
  if (signIn !== undefined) {
    const [output] = await signIn.signIn({ ...input, address: account.address });
    if (output !== undefined && new TextDecoder().decode(output.signedMessage) === text)
      return base58(output.signature);
  }
  const signMessage = features["solana:signMessage"];
  if (signMessage === undefined)
    throw new Error(`${wallet.name} signed a sign-in text this service cannot check.`);
  const [signed] = await signMessage.signMessage({ account, message: new TextEncoder().encode(text) });
  if (signed === undefined) throw new Error(`${wallet.name} returned no signature.`);
  return base58(signed.signature);
};

const proveWith =
  (wallet: Wallet, chain: string) => async (challenge: SignInChallenge, progress: (text: string) => void) => {
    const features = wallet.features as Features;
    progress(`Connecting to ${wallet.name}…`);
    const { accounts } = await features["standard:connect"]!.connect();
    const account =
      accounts.find((candidate) => candidate.chains.includes(chain as `${string}:${string}`)) ?? accounts[0];
    if (account === undefined) throw new Error(`${wallet.name} shared no account.`);
    const supported = challenge.supportedChains[0];
    if (supported === undefined) throw new Error("The service offered no chain to sign in on.");
    const fields = { ...challenge.info, chainId: supported.chainId };
    progress(`Approve the sign-in in ${wallet.name}…`);
    const signature = await signatureOver(wallet, account, signInMessage(fields, account.address), fields);
    return { ...fields, address: account.address, type: "ed25519", signatureScheme: "siws", signature };
  };

/** The wallets that can sign in on this network (the demo wallet too, on the local chain). */
export const findSignInWallets = async (context: PayContext): Promise<ReadonlyArray<SignInChoice>> => {
  const wallets = getWallets();
  const chain = chainId(context.payment.network);
  if (context.payment.network === "localnet") await registerDemoWallet(context, wallets, chain);
  return wallets
    .get()
    .filter((wallet) => canSignIn(wallet, chain))
    .map((wallet) => ({ name: wallet.name, icon: wallet.icon, prove: proveWith(wallet, chain) }));
};
