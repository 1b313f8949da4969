/** UTC-day arithmetic. Time always arrives as epoch milliseconds from the caller. */
export const DAY_MS = 86_400_000;

/** Index of the UTC day containing `now` (days since the epoch). */
export const utcDay = (now: number): number => Math.floor(now / DAY_MS);

/** Epoch ms of the next UTC midnight after `now`: when the free quota resets. */
export const nextUtcMidnight = (now: number): number => (utcDay(now) + 1) * DAY_MS;
