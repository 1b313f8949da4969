/**
 * The service started the real way from an environment (src/runtime/service-layers.ts, then
 * createApp), in this process: the settings parsed as boot parses them, the demo index made as
 * boot makes it when the INDEX_PATH has none. Stop `service` when done.
 */
import * as Result from "effect/Result";
import { type Env, parseConfig } from "../../core/config/config.ts";
import { createApp } from "../../src/app.ts";
import { serviceLimiters } from "../../src/http/service-limiters.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { makeMetrics } from "../../src/observability/metrics.ts";
import { ensureDemoIndex } from "../../src/runtime/demo-index.ts";
import { startService } from "../../src/runtime/service-layers.ts";

export const startFromEnv = async (env: Env) => {
  const config = Result.getOrThrow(parseConfig(env));
  const { logger } = memoryLogger();
  await ensureDemoIndex(config, logger);
  const metrics = makeMetrics();
  const limiters = serviceLimiters();
  const service = await startService({
    config,
    env,
    logger,
    metrics,
    events: {},
    signIn: () => undefined,
    receiptKey: () => undefined,
    limiters,
  });
  const app = createApp({ runtime: service.runtime, config, logger, metrics, limiters });
  return { service, app };
};
