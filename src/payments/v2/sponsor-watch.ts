/**
 * The fee payer's SOL, watched: read at start and every 30 s, and lowered by each fee it pays in
 * between. Below the floor (X402_MIN_SPONSOR_BALANCE_LAMPORTS) x402 v2 leaves the 402s, with one
 * WARN line, instead of failing settlements on chain; once topped up it is offered again (one
 * INFO line). An RPC that cannot be read keeps the last verdict. It is withdrawn too, whatever
 * the balance, while the hour's budget of losses to failed settlements is spent.
 */
import type { Logger } from "../../observability/log.ts";

const REFRESH_MS = 30_000;

export interface SponsorWatch {
  /** Whether x402 v2 is offered: the balance is unknown yet, or at least the floor. */
  readonly offered: () => boolean;
  /** The balance as last read, less the fees paid since; undefined before the first read. */
  readonly lamports: () => bigint | undefined;
  /** A fee paid: the balance is lower by it until the next read. */
  readonly spent: (lamports: bigint) => void;
  /** Reads the balance now. */
  readonly refresh: () => Promise<void>;
  /**
   * Withdraws x402 v2 until `until` (epoch ms) whatever the balance: the hour's budget of
   * lamports lost to failed settlements is spent (sponsor-losses.ts). One WARN per withdrawal.
   */
  readonly withdrawUntil: (until: number) => void;
  readonly stop: () => void;
}

export interface SponsorWatchSetup {
  readonly read: () => Promise<bigint>;
  readonly floor: bigint;
  readonly logger: Logger;
  /** Told the balance and the verdict after each change (the /metrics gauges). */
  readonly onChange?: (lamports: bigint, offered: boolean) => void;
  readonly everyMs?: number;
}

export const watchSponsor = (setup: SponsorWatchSetup): SponsorWatch => {
  let lamports: bigint | undefined;
  let offered = true;
  let withdrawnUntil = 0;
  const judge = () => {
    if (lamports === undefined) return;
    const now = lamports >= setup.floor;
    if (now !== offered) {
      if (now)
        setup.logger.info("x402 v2 offered again: the fee payer is above its floor", {
          lamports: `${lamports}`,
        });
      else
        setup.logger.warn("x402 v2 withdrawn from 402s: the fee payer's SOL is below its floor; top it up", {
          lamports: `${lamports}`,
          floor: `${setup.floor}`,
        });
    }
    offered = now;
    setup.onChange?.(lamports, offered);
  };
  const refresh = async () => {
    const read = await setup.read().catch(() => undefined);
    if (read === undefined) return;
    lamports = read;
    judge();
  };
  const timer = setInterval(() => void refresh(), setup.everyMs ?? REFRESH_MS);
  // A watch never keeps a process alive (tests, CLIs).
  (timer as { unref?: () => void }).unref?.();
  return {
    offered: () => offered && Date.now() >= withdrawnUntil,
    withdrawUntil: (until) => {
      if (until <= withdrawnUntil) return;
      if (Date.now() >= withdrawnUntil)
        setup.logger.warn(
          "x402 v2 withdrawn from 402s: this hour's budget of lamports lost to failed settlements is spent",
          { until: new Date(until).toISOString() },
        );
      withdrawnUntil = until;
      setup.onChange?.(lamports ?? 0n, false);
    },
    lamports: () => lamports,
    spent: (fee) => {
      if (lamports === undefined) return;
      lamports -= fee;
      judge();
    },
    refresh,
    stop: () => clearInterval(timer),
  };
};
