/**
 * How many sessions a wallet may hold, and how often it may sign in. Each sign-in opens a
 * 30-day session; signing a message costs nothing, so without a cap one wallet could hold a
 * session per sign-in for a month (20 a minute: ~860,000). At most MAX_SESSIONS_PER_WALLET live
 * sessions: opening one more revokes the oldest (a browser, a phone, a CLI and room to spare),
 * so a wallet holds at most 10 session records whatever it does. Sign-ins are limited to
 * MAX_SIGN_INS_PER_WALLET per SIGN_IN_WINDOW_MS (30 an hour: one every two minutes on
 * average), so a script cannot churn a wallet's sessions (and the store's writes) at the
 * protection limit's pace; the 31st in the hour is refused "too-many-sign-ins" (429).
 */
export const MAX_SESSIONS_PER_WALLET = 10;
export const MAX_SIGN_INS_PER_WALLET = 30;
export const SIGN_IN_WINDOW_MS = 3_600_000;
