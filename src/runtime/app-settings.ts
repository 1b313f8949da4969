/** The configuration as a service, so adapter choices read as layers over it. */
import { Context } from "effect";
import type { AppConfig } from "../../core/config.ts";

export class AppSettings extends Context.Service<AppSettings, AppConfig>()("src/runtime/AppSettings") {}
