/**
 * The days an insights request covers: `from` and `to` are UTC dates (YYYY-MM-DD), both
 * included; without them the last 30 days up to today. At most a year, so a report stays small.
 */
import * as Result from "effect/Result";
import { DAY_MS, utcDay } from "../time.ts";

export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 366;

export interface DayRange {
  /** First and last UTC day (days since the epoch), both included. */
  readonly fromDay: number;
  readonly toDay: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2030-01-15" -> its UTC day; undefined for anything else, including dates that do not exist. */
export const parseDay = (text: string): number | undefined => {
  const match = DATE.exec(text);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  const exists =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return exists && year >= 1970 ? utcDay(ms) : undefined;
};

/** A UTC day as YYYY-MM-DD. */
export const formatDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The requested range, or what is wrong with it. */
export const dayRange = (
  request: { readonly from?: string | undefined; readonly to?: string | undefined },
  now: number,
): Result.Result<DayRange, string> => {
  const toDay = request.to === undefined ? utcDay(now) : parseDay(request.to);
  if (toDay === undefined) return Result.fail("to must be a date like 2030-01-31");
  const fromDay = request.from === undefined ? toDay - (DEFAULT_RANGE_DAYS - 1) : parseDay(request.from);
  if (fromDay === undefined) return Result.fail("from must be a date like 2030-01-01");
  if (fromDay > toDay) return Result.fail("from must not be after to");
  if (toDay - fromDay + 1 > MAX_RANGE_DAYS)
    return Result.fail(`a range covers at most ${MAX_RANGE_DAYS} days`);
  return Result.succeed({ fromDay: Math.max(0, fromDay), toDay });
};

/** Epoch ms where the range starts, and where it ends (exclusive). */
export const rangeStart = (range: DayRange): number => range.fromDay * DAY_MS;
export const rangeEnd = (range: DayRange): number => (range.toDay + 1) * DAY_MS;

/** Every day of the range, in order. */
export const daysOf = (range: DayRange): ReadonlyArray<number> =>
  Array.from({ length: range.toDay - range.fromDay + 1 }, (_, i) => range.fromDay + i);
