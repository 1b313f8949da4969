/**
 * The real app (edge, routes, store) for the status benchmark. Only the store is
 * exercised by GET /api/status; the other ports are not reachable from that route, so they are
 * bound to layers that fail loudly if a request ever touches them.
 */
import { resolve } from "node:path";
import * as Redacted from "effect/Redacted";
import { statusAppAt } from "./status-app-at.ts";

const port = Number(process.argv[2]);
const redisUrl = process.argv[3];
const { app } = await statusAppAt(resolve(import.meta.dir, "../../.."), {
  redisUrl: redisUrl === undefined ? undefined : Redacted.make(redisUrl),
});
Bun.serve({
  port,
  hostname: "127.0.0.1",
  fetch: (request, server) => app.fetch(request, { remoteAddress: server.requestIP(request)?.address }),
});
console.log("ready");
