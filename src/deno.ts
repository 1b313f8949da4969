/** Deno entry point of the service: a configured chain, no demo chain. */
import { serveOnDeno } from "./runtime/serve-deno.ts";

await serveOnDeno();
