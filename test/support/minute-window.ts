/**
 * Budgets counted in fixed UTC minutes start afresh as each minute turns: a test that fills one
 * starts well inside a minute, so that all its requests (a few seconds) fall in the same window.
 */
const MINUTE_MS = 60_000;

/** Waits for the next minute when fewer than `marginMs` are left of this one. */
export const awayFromMinuteEdge = async (marginMs = 20_000): Promise<void> => {
  const left = MINUTE_MS - (Date.now() % MINUTE_MS);
  if (left < marginMs) await Bun.sleep(left + 100);
};
