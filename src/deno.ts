/**
 * Deno entry point, the twin of src/main.ts: the same config, demo chain, runtime and app,
 * served with Deno.serve and stopped on Deno's signal listeners. Runs from the repo with the
 * `deno` npm package over the node_modules npm installed:
 *
 *   node_modules/.bin/deno run -A --no-lock --node-modules-dir=manual src/deno.ts
 */
import { boot } from "./runtime/boot.ts";

/** The few Deno APIs used here (the project typechecks against Bun's types, not Deno's). */
interface DenoApi {
  readonly env: { readonly toObject: () => Record<string, string> };
  readonly exit: (code: number) => never;
  readonly addSignalListener: (signal: "SIGTERM" | "SIGINT", handler: () => void) => void;
  readonly serve: (
    options: { readonly port: number; readonly onListen: (addr: { hostname: string; port: number }) => void },
    handler: (
      request: Request,
      info: { readonly remoteAddr: { readonly hostname: string } },
    ) => Response | Promise<Response>,
  ) => { readonly shutdown: () => Promise<void>; readonly finished: Promise<void> };
}
declare const Deno: DenoApi;

const { app, config, chain, logger, onSignal } = await boot(Deno.env.toObject(), (code) => Deno.exit(code));
const server = Deno.serve(
  {
    port: config.port,
    onListen: ({ hostname, port }) =>
      logger.info("listening", {
        url: `http://${hostname}:${port}/`,
        runtime: "deno",
        network: chain.network,
        wallet: chain.wallet,
        usdcMint: chain.usdcMint,
      }),
  },
  (request, info) => app.fetch(request, { remoteAddress: info.remoteAddr.hostname }),
);

// shutdown() stops accepting and waits for in-flight requests.
const shutdown = onSignal(() => server.shutdown());
Deno.addSignalListener("SIGTERM", () => void shutdown("SIGTERM"));
Deno.addSignalListener("SIGINT", () => void shutdown("SIGINT"));
