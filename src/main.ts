/** Bun entry point of the service (the container image's CMD): a configured chain, no demo chain. */
import { serveOnBun } from "./runtime/serve-bun.ts";

await serveOnBun();
