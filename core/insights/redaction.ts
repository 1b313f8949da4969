/**
 * Question texts (and vote comments) are kept only after what looks private is replaced by
 * `[redacted]`: by default e-mail addresses, keys and tokens (long runs of letters and digits
 * mixed, such as API keys, wallet addresses and signatures) and long numbers (phone, card and
 * account numbers). The owner can set their own pattern (INSIGHTS_REDACT_PATTERN).
 */
import * as Result from "effect/Result";

export const REDACTED = "[redacted]";

// The local part takes every character RFC 5322 allows unquoted.
const EMAIL = "[\\p{L}\\p{N}.!#$%&'*+/=?^_`{|}~-]+@[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)+";
// A token: 20+ characters of letters, digits, '_' or '-', holding at least one digit and one
// letter (so long plain words stay), e.g. sk-..., gsk_..., base58 addresses and signatures.
const KEY = String.raw`(?<![\p{L}\p{N}_-])(?=[\p{L}_-]*\p{N})(?=[\p{N}_-]*\p{L})[\p{L}\p{N}_-]{20,}`;
// Seven or more digits, optionally grouped by single spaces or dashes (so "555 123 4567" goes,
// and so do two years written side by side; versions like 18.20.1 stay).
const LONG_NUMBER = String.raw`(?<![\p{N}.])\p{N}(?:[ -]?\p{N}){6,}(?![\p{N}])`;

/** The default pattern's source, as INSIGHTS_REDACT_PATTERN would be written. */
export const DEFAULT_REDACT_PATTERN = `${EMAIL}|${KEY}|${LONG_NUMBER}`;

/** A redaction pattern from its source (flags: global, case-insensitive, Unicode). */
export const compileRedaction = (source: string): Result.Result<RegExp, string> => {
  try {
    return Result.succeed(new RegExp(source, "giu"));
  } catch {
    return Result.fail("is not a valid regular expression");
  }
};

export const DEFAULT_REDACTION: RegExp = Result.getOrThrow(compileRedaction(DEFAULT_REDACT_PATTERN));

/** `text` with every match of `pattern` replaced by [redacted]. */
export const redact = (text: string, pattern: RegExp): string =>
  // A fresh copy per call (a global RegExp carries lastIndex between uses); empty matches of an
  // owner's pattern (such as `a*`) replace nothing.
  text.replace(new RegExp(pattern.source, pattern.flags), (match) => (match === "" ? "" : REDACTED));
