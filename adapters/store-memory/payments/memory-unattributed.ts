/**
 * UnattributedPayments in process memory: the sorted entries of core/payments/unattributed.ts,
 * replaced on each record (at most 10,000, and each one needs a verified transfer to our
 * wallet, so copying them is cheap at the rate they can come).
 */
import * as Effect from "effect/Effect";
import {
  isKept,
  recordEntry,
  type UnattributedBounds,
  type UnattributedPayment,
} from "../../../core/payments/unattributed.ts";
import { UnattributedPayments } from "../../../core/ports/unattributed-payments.ts";

export const makeMemoryUnattributed = (bounds: UnattributedBounds) => {
  let entries: ReadonlyArray<UnattributedPayment> = [];
  const store = UnattributedPayments.of({
    record: (payment, now) =>
      Effect.sync(() => {
        entries = recordEntry(entries, payment, now, bounds);
      }),
    between: (from, to, now) =>
      Effect.sync(() =>
        entries.filter((entry) => entry.at >= from && entry.at < to && isKept(entry, now, bounds)),
      ),
  });
  return { store, size: () => entries.length };
};
