/** The quota line of the header: questions left, the free/paid split and when free ones reset. */
import type { RateLimit } from "./chat-api.ts";

const untilText = (ms: number): string => {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
};

export const quotaText = (rateLimit: RateLimit, now: number = Date.now()) => {
  const free = rateLimit.free ?? rateLimit.remaining;
  const paid = rateLimit.paid ?? 0;
  const reset = `free reset in ${untilText(rateLimit.resetAt - now)}`;
  return {
    short: `Questions left: ${rateLimit.remaining}`,
    detail: `${free} free · ${paid} paid · ${reset}`,
    title: `Free questions reset at ${new Date(rateLimit.resetAt).toLocaleString()}`,
  };
};
