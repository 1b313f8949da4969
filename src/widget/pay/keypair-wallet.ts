/**
 * A Wallet Standard wallet over a key pair held in the page: the demo wallet of the local chain,
 * and the test wallet of the browser tests. It signs what it is given with its own key and sends
 * it through `send`, exactly as a browser extension wallet does with its RPC.
 */

import {
  getAddressEncoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  getTransactionEncoder,
  type KeyPairSigner,
  partiallySignTransaction,
} from "@solana/kit";
import type {
  SolanaSignAndSendTransactionFeature,
  SolanaSignInFeature,
  SolanaSignMessageFeature,
  SolanaSignTransactionFeature,
} from "@solana/wallet-standard-features";
import type { Wallet, WalletAccount, WalletIcon } from "@wallet-standard/base";
import type { StandardConnectFeature, StandardEventsFeature } from "@wallet-standard/features";
import { signInMessage } from "../../../core/sign-in/siws-text.ts";

export interface KeypairWalletOptions {
  readonly name: string;
  readonly icon: WalletIcon;
  readonly chain: `${string}:${string}`;
  readonly signer: KeyPairSigner;
  /** Sends a signed transaction (base64 wire form); resolves to its signature. */
  readonly send: (wireBase64: string) => Promise<string>;
  /** Runs before the first account is handed out (the demo wallet gets its funds here). */
  readonly onConnect?: () => Promise<void>;
}

type Features = StandardConnectFeature &
  StandardEventsFeature &
  SolanaSignTransactionFeature &
  SolanaSignAndSendTransactionFeature &
  SolanaSignMessageFeature &
  SolanaSignInFeature;

export const keypairWallet = (options: KeypairWalletOptions): Wallet & { readonly features: Features } => {
  const { signer, chain } = options;
  const features = [
    "solana:signTransaction",
    "solana:signAndSendTransaction",
    "solana:signMessage",
    "solana:signIn",
  ] as const;
  const account: WalletAccount = {
    address: signer.address,
    publicKey: new Uint8Array(getAddressEncoder().encode(signer.address)),
    chains: [chain],
    features,
  };
  let accounts: ReadonlyArray<WalletAccount> = [];
  let connecting: Promise<void> | undefined;
  /** The raw ed25519 signature of `message` with the wallet's key. */
  const signBytes = async (message: Uint8Array) => {
    const signed = await crypto.subtle.sign("Ed25519", signer.keyPair.privateKey, message as BufferSource);
    return new Uint8Array(signed);
  };
  const sign = async (bytes: Uint8Array) => {
    const transaction = getTransactionDecoder().decode(bytes);
    return partiallySignTransaction([signer.keyPair], transaction);
  };
  return {
    version: "1.0.0",
    name: options.name,
    icon: options.icon,
    chains: [chain],
    get accounts() {
      return accounts;
    },
    features: {
      "standard:connect": {
        version: "1.0.0",
        connect: async () => {
          connecting ??= (options.onConnect?.() ?? Promise.resolve()).then(() => {
            accounts = [account];
          });
          await connecting.catch((cause: unknown) => {
            connecting = undefined;
            throw cause;
          });
          return { accounts };
        },
      },
      "standard:events": { version: "1.0.0", on: () => () => undefined },
      "solana:signTransaction": {
        version: "1.0.0",
        supportedTransactionVersions: ["legacy", 0],
        signTransaction: (...inputs) =>
          Promise.all(
            inputs.map(async (input) => ({
              signedTransaction: new Uint8Array(
                getTransactionEncoder().encode(await sign(input.transaction)),
              ),
            })),
          ),
      },
      "solana:signMessage": {
        version: "1.1.0",
        signMessage: (...inputs) =>
          Promise.all(
            inputs.map(async (input) => ({
              signedMessage: input.message,
              signature: await signBytes(input.message),
            })),
          ),
      },
      // Writes the SIWS text of the sign-in-with-x extension, the same as the service rebuilds.
      "solana:signIn": {
        version: "1.0.0",
        signIn: (...inputs) =>
          Promise.all(
            inputs.map(async (input) => {
              const text = signInMessage(
                {
                  domain: input.domain ?? location.host,
                  uri: input.uri ?? location.origin,
                  version: input.version ?? "1",
                  chainId: input.chainId ?? chain,
                  nonce: input.nonce ?? "",
                  issuedAt: input.issuedAt ?? new Date().toISOString(),
                  statement: input.statement,
                  expirationTime: input.expirationTime,
                  notBefore: input.notBefore,
                  requestId: input.requestId,
                  resources: input.resources,
                },
                signer.address,
              );
              const signedMessage = new TextEncoder().encode(text);
              return { account, signedMessage, signature: await signBytes(signedMessage) };
            }),
          ),
      },
      "solana:signAndSendTransaction": {
        version: "1.0.0",
        supportedTransactionVersions: ["legacy", 0],
        signAndSendTransaction: (...inputs) =>
          Promise.all(
            inputs.map(async (input) => {
              const signature = await options.send(
                getBase64EncodedWireTransaction(await sign(input.transaction)),
              );
              return { signature: new Uint8Array(getBase58Encoder().encode(signature)) };
            }),
          ),
      },
    },
  };
};
