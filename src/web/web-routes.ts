/** The service's face: the demo page, the widget bundles, and the two helpers the widget calls. */
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env.ts";
import { DEMO_FUNDS, demoFaucet, type FundDemoWallet } from "./demo-faucet.ts";
import { DEMO_PAGE, DEMO_PAGE_HEADERS } from "./demo-page.ts";
import { rpcRelay } from "./rpc-relay.ts";
import { widgetAssets } from "./widget-assets.ts";

export interface WebDeps {
  /** The chain's JSON-RPC endpoint, relayed at /api/solana-rpc. */
  readonly rpcUrl?: string | undefined;
  /** Present only on the service's own local chain: the demo wallet faucet. */
  readonly fundDemoWallet?: FundDemoWallet | undefined;
  /** Where the bundles are (default dist/widget/). */
  readonly widgetDist?: string | undefined;
}

/** Mounted under /api: the RPC relay and, on the local demo chain only, the demo wallet faucet. */
export const widgetApiRoutes = ({ rpcUrl, fundDemoWallet }: WebDeps) => {
  const api = new Hono<AppEnv>();
  if (rpcUrl !== undefined) api.post("/solana-rpc", rpcRelay(rpcUrl));
  if (fundDemoWallet !== undefined) {
    api.get("/demo-wallet", (c) =>
      c.json({
        success: true,
        sol: Number(DEMO_FUNDS.lamports) / 1e9,
        usdc: Number(DEMO_FUNDS.usdcUnits) / 1e6,
      }),
    );
    api.post("/demo-wallet", demoFaucet(fundDemoWallet));
  }
  return api;
};

/** Mounted at the root: GET / (the demo docs page) and the widget bundles. */
export const webPageRoutes = ({ widgetDist }: WebDeps) => {
  const assets = widgetAssets(widgetDist);
  return new Hono<AppEnv>()
    .get("/", (c) => c.html(DEMO_PAGE, 200, DEMO_PAGE_HEADERS))
    .get("/widget.js", (c) => assets(c, "widget.js"))
    .get("/widget-pay.js", (c) => assets(c, "widget-pay.js"));
};
