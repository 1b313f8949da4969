/**
 * The service on Bun: boot (boot.ts), serve with Bun.serve, stop on SIGTERM/SIGINT.
 * IDLE_TIMEOUT_SECONDS closes a keep-alive socket that sends nothing between requests (measured on
 * Bun 1.4.5: closed 2 to 4 s after the timeout, as uWS checks every 4 s). A socket whose first
 * headers are not complete is closed by Bun itself about 10 to 12 s after it connects, however
 * slowly they trickle and whatever this setting (docs/deployment.md); BODY_DEADLINE_MS bounds the body.
 */
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
        idleTimeout: config.surface.idleTimeoutSeconds,
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
