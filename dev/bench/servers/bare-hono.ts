/**
 * Baseline: a bare Hono app on Bun. GET /api/status answers a small JSON (after one Redis GET
 * when a Redis URL is given); GET /api/payment/info answers a body of the same shape and size as
 * the service's, from a constant object, as a plain Hono route would.
 */
import { Hono } from "hono";
import Redis from "ioredis";
import { paymentInfo } from "../../../src/payments/payment-info.ts";

// The port as the first argument (the status bench) or PORT (the startup bench, as the service takes it).
const port = Number(process.argv[2] ?? process.env.PORT);
const redisUrl = process.argv[3];
const redis = redisUrl === undefined ? undefined : new Redis(redisUrl);
const INFO = paymentInfo(
  {
    network: "devnet",
    usdcMint: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
    wallet: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
    memoPrefix: "docschat:",
    memoRequired: false,
    unitsPerQuery: 1_000n,
    paidDailyCap: 1000,
  },
  "Rk3nTz8Qw2pLx9Vb4Mh6Jc",
  "",
);
const app = new Hono()
  .get("/api/status", async (c) =>
    c.json({ remaining: redis === undefined ? 3 : Number((await redis.get("bench:baseline")) ?? 3) }),
  )
  .get("/api/payment/info", (c) => c.json(INFO));
Bun.serve({ port, hostname: "127.0.0.1", fetch: app.fetch });
console.log("ready");
