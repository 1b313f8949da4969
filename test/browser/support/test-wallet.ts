/**
 * The test wallet, bundled into the page before it loads: a key pair wallet (the widget's own
 * keypair-wallet.ts) announced through the Wallet Standard's wallet-side protocol
 * (@wallet-standard/wallet registerWallet), exactly as a browser extension announces itself. It
 * signs in the page with a local key and sends through `window.testWalletSend`, the test's link
 * to the chain.
 */
import { createKeyPairSignerFromBytes } from "@solana/kit";
import { registerWallet } from "@wallet-standard/wallet";
import { keypairWallet } from "../../../src/widget/pay/keypair-wallet.ts";

interface TestWalletWindow {
  readonly testWalletConfig: {
    readonly secretKey: ReadonlyArray<number>;
    readonly chain: `${string}:${string}`;
  };
  readonly testWalletSend: (wireBase64: string) => Promise<string>;
}

const ICON =
  "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAyNCAyNCI+PHJlY3Qgd2lkdGg9IjI0IiBoZWlnaHQ9IjI0IiByeD0iNSIgZmlsbD0iIzY2MzNjYyIvPjwvc3ZnPg==";

const page = window as unknown as TestWalletWindow;
// Init scripts also run in the blank page before navigation, which has no WebCrypto.
if (location.protocol === "http:" || location.protocol === "https:")
  void (async () => {
    const signer = await createKeyPairSignerFromBytes(Uint8Array.from(page.testWalletConfig.secretKey));
    registerWallet(
      keypairWallet({
        name: "Test wallet",
        icon: ICON,
        chain: page.testWalletConfig.chain,
        signer,
        send: (wire) => page.testWalletSend(wire),
      }),
    );
  })();
