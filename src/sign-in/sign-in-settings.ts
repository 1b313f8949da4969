/**
 * Where wallet sign-ins are bound. The domain and URI a wallet signs are the configured
 * PUBLIC_ORIGIN's, never a request's Host header (a caller sets that). Without PUBLIC_ORIGIN the
 * service binds them to http://localhost:<PORT>, which is what the local demo is opened at;
 * a public deployment sets PUBLIC_ORIGIN to the address browsers use.
 */
import type { AppConfig } from "../../core/config/config.ts";
import type { ChainNetwork } from "../../core/payments/network.ts";
import { signInChainId } from "../../core/sign-in/sign-in-rules.ts";
import type { SignInSettings } from "./wallet-sign-in.ts";

export const signInSettings = (
  config: Pick<AppConfig, "port" | "surface">,
  network: ChainNetwork,
  paymentNetwork: string | undefined,
): SignInSettings => ({
  origin: config.surface.publicOrigin ?? `http://localhost:${config.port}`,
  chainId: signInChainId(network, paymentNetwork),
});
