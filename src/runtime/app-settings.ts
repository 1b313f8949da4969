/** The configuration as a service, so adapter choices read as layers over it. */
import * as Context from "effect/Context";
import type { AppConfig } from "../../core/config/config.ts";

export class AppSettings extends Context.Service<AppSettings, AppConfig>()("src/runtime/AppSettings") {}
