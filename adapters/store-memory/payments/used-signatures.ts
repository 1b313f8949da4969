/**
 * The used signatures of a memory store, as a service so that several stores of one process
 * can keep one ledger: a hosted site's store takes the default site's, so one transfer pays
 * once in the whole service (a site without a wallet of its own receives in the service's).
 */
import * as Context from "effect/Context";
import type { UsedSignature } from "../../../core/payments/signature-ledger.ts";

export class UsedSignatures extends Context.Service<UsedSignatures, Map<string, UsedSignature>>()(
  "adapters/store-memory/UsedSignatures",
) {}
