/**
 * POST /api/demo-wallet: funds a browser's demo wallet on the local demo chain, so a new user can
 * try paying offline. It exists only when the service started its own local chain: with
 * CHAIN_NETWORK set there is no such route (404), on devnet and mainnet alike.
 */
import { type Address, isAddress } from "@solana/kit";
import type { Context } from "hono";
import { UNITS_PER_USDC } from "../../../core/payments/money.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import { readJsonObject } from "../../hono-kit/read-json.ts";

/** Enough SOL for fees and the recipient's token account, and 1 test USDC (1000 questions). */
export const DEMO_FUNDS = { lamports: 100_000_000n, usdcUnits: UNITS_PER_USDC } as const;

/** Funds a browser's demo wallet (SOL and test USDC); given by the program that started a local chain. */
export type FundDemoWallet = (owner: Address) => Promise<void>;

export const demoFaucet = (fund: FundDemoWallet) => async (c: Context<AppEnv>) => {
  const parsed = await readJsonObject(c);
  if (!parsed.ok) return parsed.response;
  const { address } = parsed.value;
  if (typeof address !== "string" || !isAddress(address))
    return c.json(
      {
        success: false,
        error: "Invalid demo wallet",
        details: 'Send {"address": "<base58 address of the demo wallet>"}.',
        code: "INVALID_REQUEST",
      },
      400,
    );
  await fund(address);
  c.env.log.info("demo wallet funded", { address });
  return c.json({
    success: true,
    address,
    sol: Number(DEMO_FUNDS.lamports) / 1e9,
    usdc: Number(DEMO_FUNDS.usdcUnits) / Number(UNITS_PER_USDC),
  });
};
