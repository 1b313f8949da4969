/**
 * The session key of the console ADMIN_TOKEN alone opens (the root site's): a MAC under the
 * token, which every instance holds, so a session made on one opens the others, and changing
 * the token ends every session. A hosted site's console signs under its store's secret instead
 * (site-routes.ts), since its owner's token is known to the service only by its hash.
 */
import { createHmac } from "node:crypto";
import * as Redacted from "effect/Redacted";

export const operatorSeal =
  (adminToken: Redacted.Redacted<string> | undefined) =>
  (message: string): string =>
    createHmac("sha256", adminToken === undefined ? "" : Redacted.value(adminToken))
      .update(message)
      .digest("hex");
