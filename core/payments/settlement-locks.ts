/**
 * The settlement locks' rule (port: core/ports/settlement-locks-store.ts), as pure functions the
 * memory store runs and the Redis store's Lua mirrors. A lock is a holder (the transaction id)
 * and an instant it lapses at: a crashed instance never blocks a payer for longer than that.
 *
 *   free --acquire(h)--> settling by h until now+ttl --release(h, 0)--> free
 *                          |  acquire(h): "held-by-holder"    release(h, c): cooling by h until now+c
 *                          |  acquire(other): "held-by-other"    |  acquire(h): settling again (the same
 *                          '-- lapses at `until` --> free        |  transaction may be sent again)
 *                                                                |  acquire(other): "held-by-other"
 *                                                                '-- lapses --> free
 */

/** A settlement's blockhash lives about 60-90 s and its confirmation is awaited 30 s at most. */
export const SETTLEMENT_LOCK_MS = 120_000;
/** How long a payer whose settlement failed waits before the next one is sent. */
export const SETTLEMENT_COOL_DOWN_MS = 10_000;

export interface SettlementLock {
  readonly holder: string;
  /** Epoch ms at which it lapses. */
  readonly until: number;
  /** Left after a failed settlement: the holder may settle again, nobody else yet. */
  readonly cooling: boolean;
}

/** What an acquire finds: the keys are now the holder's, its settlement is in flight already, or another's is. */
export type Acquired = "acquired" | "held-by-holder" | "held-by-other";

/** What `holder` finds at one key now. */
export const acquireVerdict = (lock: SettlementLock | undefined, holder: string, now: number): Acquired => {
  if (lock === undefined || lock.until <= now) return "acquired";
  if (lock.holder !== holder) return "held-by-other";
  return lock.cooling ? "acquired" : "held-by-holder";
};

/** The verdict over all the keys of a payment: another's lock wins, then the holder's own. */
export const acquireVerdictOf = (verdicts: ReadonlyArray<Acquired>): Acquired =>
  verdicts.includes("held-by-other")
    ? "held-by-other"
    : verdicts.includes("held-by-holder")
      ? "held-by-holder"
      : "acquired";

/** A payment's locks: its keys and the settlement attempt that holds them. */
export interface PayerHold {
  readonly keys: ReadonlyArray<string>;
  readonly holder: string;
}

/** The keys of one payment: its paying wallet and its source token account. */
export const settlementKeysOf = (transfer: { readonly authority: string; readonly source: string }) => [
  `payer:${transfer.authority}`,
  `source:${transfer.source}`,
];

/** The lock a release leaves: none, or the holder's for the cool-down. */
export const afterRelease = (
  lock: SettlementLock | undefined,
  holder: string,
  now: number,
  coolDownMs: number,
): SettlementLock | undefined => {
  // A lapsed lock is free already (Redis has expired it): nothing to cool down.
  if (lock === undefined || lock.until <= now) return undefined;
  if (lock.holder !== holder) return lock;
  return coolDownMs > 0 ? { holder, until: now + coolDownMs, cooling: true } : undefined;
};
