/** A hosted site's logger: every line its parts write (its index, reconciler, store) names the site. */
import type { LogFields, Logger } from "../observability/log.ts";

export const siteLogger = (logger: Logger, site: string): Logger => ({
  info: (msg: string, fields?: LogFields) => logger.info(msg, { site, ...fields }),
  warn: (msg: string, fields?: LogFields) => logger.warn(msg, { site, ...fields }),
  error: (msg: string, fields?: LogFields) => logger.error(msg, { site, ...fields }),
});
