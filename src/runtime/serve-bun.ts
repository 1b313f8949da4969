/** The service on Bun: boot (boot.ts), serve with Bun.serve, stop on SIGTERM/SIGINT. */
import { type BootOptions, boot } from "./boot.ts";

export const serveOnBun = async (options: BootOptions = {}) => {
  const { app, config, chain, logger, onSignal, failStart } = await boot(
    process.env,
    (code) => process.exit(code),
    options,
  );
  // A port in use (or a host that is not ours) throws here: one clear line, then exit 1.
  const server = await Promise.resolve()
    .then(() =>
      Bun.serve({
        hostname: config.host,
        port: config.port,
        fetch: (request, srv) => app.fetch(request, { remoteAddress: srv.requestIP(request)?.address }),
      }),
    )
    .catch(failStart);
  logger.info("listening", {
    url: server.url.href,
    network: chain.network,
    wallet: chain.wallet,
    usdcMint: chain.usdcMint,
  });

  // stop(false): stop accepting, let in-flight requests finish.
  const shutdown = onSignal(() => server.stop(false));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
};
