/**
 * The service on Deno, the twin of serve-bun.ts: the same config, runtime and app, served with
 * Deno.serve and stopped on Deno's signal listeners. `npm run start:deno` runs it (with the
 * demo chain, dev/demo/deno.ts) with the `deno` npm package over the node_modules npm installed. It opts in to Deno's
 * request.signal that aborts only when the client goes away (--unstable-no-legacy-abort):
 * the chat route listens to it to release an unanswered question, and the legacy signal,
 * which also fires after every delivered response, printed a warning.
 */
import { type BootOptions, boot } from "./boot.ts";

/** The few Deno APIs used here (the project typechecks against Bun's types, not Deno's). */
interface DenoApi {
  readonly env: { readonly toObject: () => Record<string, string> };
  readonly exit: (code: number) => never;
  readonly addSignalListener: (signal: "SIGTERM" | "SIGINT", handler: () => void) => void;
  readonly serve: (
    options: {
      readonly hostname: string;
      readonly port: number;
      readonly onListen: (addr: { hostname: string; port: number }) => void;
    },
    handler: (
      request: Request,
      info: { readonly remoteAddr: { readonly hostname: string } },
    ) => Response | Promise<Response>,
  ) => { readonly shutdown: () => Promise<void>; readonly finished: Promise<void> };
}
declare const Deno: DenoApi;

export const serveOnDeno = async (options: BootOptions = {}) => {
  const { app, config, chain, logger, onSignal, failStart } = await boot(
    Deno.env.toObject(),
    (code) => Deno.exit(code),
    options,
  );
  /** An IPv6 literal needs brackets in a URL. */
  const urlHost = (hostname: string) => (hostname.includes(":") ? `[${hostname}]` : hostname);
  // A port in use throws here: one clear line, then exit 1.
  const server = await Promise.resolve()
    .then(() =>
      Deno.serve(
        {
          hostname: config.host,
          port: config.port,
          onListen: ({ hostname, port }) =>
            logger.info("listening", {
              url: `http://${urlHost(hostname)}:${port}/`,
              runtime: "deno",
              network: chain.network,
              wallet: chain.wallet,
              usdcMint: chain.usdcMint,
            }),
        },
        (request, info) => app.fetch(request, { remoteAddress: info.remoteAddr.hostname }),
      ),
    )
    .catch(failStart);

  // shutdown() stops accepting and waits for in-flight requests.
  const shutdown = onSignal(() => server.shutdown());
  Deno.addSignalListener("SIGTERM", () => void shutdown("SIGTERM"));
  Deno.addSignalListener("SIGINT", () => void shutdown("SIGINT"));
};
