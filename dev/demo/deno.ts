/** `npm run start:deno`: the service on Deno, with the local demo chain when no chain is configured. */
import { serveOnDeno } from "../../src/runtime/serve-deno.ts";
import { startLocalDemoChain } from "./local-chain.ts";

await serveOnDeno({ localChain: startLocalDemoChain });
