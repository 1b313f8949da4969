/** The two helpers the widget calls under /api: the RPC relay and, on a local demo chain only, the demo wallet faucet. */
import { Hono } from "hono";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { DEMO_FUNDS, demoFaucet, type FundDemoWallet } from "./demo-faucet.ts";
import { type RpcRelayDeps, rpcRelay } from "./rpc-relay.ts";

export interface WidgetApiDeps {
  /** The chain's JSON-RPC endpoint (relayed at /api/solana-rpc), the wallet and mint it may be paid in. */
  readonly relay?: Pick<RpcRelayDeps, "rpcUrl" | "wallet" | "usdcMint"> | undefined;
  /** Present only on a local chain the program started itself: the demo wallet faucet. */
  readonly fundDemoWallet?: FundDemoWallet | undefined;
}

/** Mounted under /api: the RPC relay and, on the local demo chain only, the demo wallet faucet. */
export const widgetApiRoutes = (
  { relay, fundDemoWallet }: WidgetApiDeps,
  limits: Pick<RpcRelayDeps, "metrics" | "runtime" | "now">,
) => {
  const api = new Hono<AppEnv>();
  if (relay !== undefined) api.post("/solana-rpc", rpcRelay({ ...relay, ...limits }));
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
