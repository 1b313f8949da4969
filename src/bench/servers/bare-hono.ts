/** Baseline: a bare Hono hello-world on Bun (optionally one Redis GET per request). */
import { Hono } from "hono";
import Redis from "ioredis";

const port = Number(process.argv[2]);
const redisUrl = process.argv[3];
const redis = redisUrl === undefined ? undefined : new Redis(redisUrl);
const app = new Hono().get("/api/status", async (c) =>
  c.json({ remaining: redis === undefined ? 3 : Number((await redis.get("bench:baseline")) ?? 3) }),
);
Bun.serve({ port, hostname: "127.0.0.1", fetch: app.fetch });
console.log("ready");
