/**
 * First start on embedded defaults: with no index yet, the service indexes its own README and
 * docs/ so a new user can ask it something at once ("how do I pay for more questions?"). Real
 * docs replace them with `npm run ingest -- <docs folder>`. The ingest pipeline (Markdown and
 * HTML parsers) is imported only then: a service whose index exists never loads it.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as Effect from "effect/Effect";
import type { AppConfig } from "../../core/config/config.ts";
import type { Logger } from "../observability/log.ts";
import { indexLayer, withSettings } from "./adapter-layers.ts";

// File URLs, not Bun's import.meta.dir, so the Deno entry point finds them too.
const DEMO_DOCS = [
  fileURLToPath(new URL("../../README.md", import.meta.url)),
  fileURLToPath(new URL("../../docs/", import.meta.url)),
];

export const ensureDemoIndex = async (config: AppConfig, logger: Logger): Promise<void> => {
  if (config.vector.kind !== "local" || existsSync(config.vector.indexPath)) return;
  const { DEMO_COLLECTION, ingest } = await import("../../adapters/docs-ingest/index.ts");
  const report = await Effect.runPromise(
    ingest(
      DEMO_DOCS.filter((path) => existsSync(path)),
      { collection: DEMO_COLLECTION },
    ).pipe(Effect.provide(withSettings(config, indexLayer()))),
  );
  logger.warn(
    "no index found: indexed this project's README and docs/ as demo docs; run `npm run ingest -- <your docs>`",
    {
      indexPath: config.vector.indexPath,
      chunks: report.chunks,
    },
  );
};
