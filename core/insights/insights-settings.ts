import * as Context from "effect/Context";

/** How recorded texts are made private: the redaction pattern (INSIGHTS_REDACT_PATTERN or the default). */
export class InsightsSettings extends Context.Service<InsightsSettings, { readonly redaction: RegExp }>()(
  "core/InsightsSettings",
) {}
