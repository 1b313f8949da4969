/** SponsorLosses in one process, by the rule of core/payments/sponsor-losses.ts. */
import * as Effect from "effect/Effect";
import {
  lossWindowOf,
  type PayerStrikes,
  STRIKE_MEMORY_MS,
  strikeAfterLoss,
} from "../../../core/payments/sponsor-losses.ts";
import { SponsorLosses } from "../../../core/ports/sponsor-losses-store.ts";

export const makeMemorySponsorLosses = () => {
  // Written only on a loss, which the hourly budget bounds; forgotten wallets are dropped as met.
  const strikes = new Map<string, PayerStrikes>();
  let lost = { window: 0, lamports: 0 };
  const live = (wallet: string, now: number) => {
    const record = strikes.get(wallet);
    if (record !== undefined && now - record.lastAt >= STRIKE_MEMORY_MS) strikes.delete(wallet);
    return strikes.get(wallet);
  };
  const lostIn = (now: number) => (lost.window === lossWindowOf(now) ? lost.lamports : 0);
  return SponsorLosses.of({
    standing: (wallet, now) =>
      Effect.sync(() => ({ refusedUntil: live(wallet, now)?.refusedUntil ?? 0, lostThisHour: lostIn(now) })),
    recordLoss: (wallet, lamports, now) =>
      Effect.sync(() => {
        const next = strikeAfterLoss(live(wallet, now), now);
        strikes.set(wallet, next);
        lost = { window: lossWindowOf(now), lamports: lostIn(now) + lamports };
        return { refusedUntil: next.refusedUntil, lostThisHour: lost.lamports };
      }),
  });
};
