/**
 * `npm start`: the service on Bun, and when no CHAIN_NETWORK is configured, a local demo chain
 * in the same process (dev/demo/local-chain.ts), so a new user can try paying offline. With a
 * chain configured it is exactly src/main.ts.
 */
import { serveOnBun } from "../../src/runtime/serve-bun.ts";
import { startLocalDemoChain } from "./local-chain.ts";

await serveOnBun({ localChain: startLocalDemoChain });
