/**
 * The session writes of redis-sessions.ts (open, close, close all) with every key named by the
 * caller (session-lua.ts): a script that meets a wallet's session it was not given answers
 * {'again', hashes} having written nothing, and is called again with their keys; a script that
 * leaves the eviction order over its cap answers its oldest, which TRIM then drops, given the
 * keys their records name. Each loop is bounded: a wallet whose sessions keep changing under it
 * fails the write as the store's (503); a trim that keeps meeting a changed order stops, the
 * order left over its cap until the next write trims it.
 */
import * as Effect from "effect/Effect";
import { walletAccount } from "../../../core/payments/wallet-credits.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import { CLOSED_SESSION_MS, MAX_SESSIONS_PER_WALLET } from "../../../core/sign-in/session-ceilings.ts";
import type { KeyLayout } from "../keys.ts";
import { luaScript, runCommand, runScript } from "../redis-client.ts";
import type { StoreClient } from "../store-client.ts";
import { CLOSE, CLOSE_ALL, OPEN, TRIM } from "./session-lua.ts";

const SCRIPTS = {
  open: luaScript(OPEN),
  close: luaScript(CLOSE),
  closeAll: luaScript(CLOSE_ALL),
  trim: luaScript(TRIM),
};

/** Calls of one write at most (its wallet's sessions changing between them), and of one trim. */
const MAX_CALLS = 3;

const unexpected = new StoreUnavailable({ reason: "unexpected reply to a session write" });

/** The hashes after a reply's first word, when the reply is that word. */
const hashesOf = (reply: unknown, word: "again" | "done"): string[] | undefined =>
  Array.isArray(reply) && reply[0] === word
    ? reply.slice(1).filter((hash): hash is string => typeof hash === "string")
    : undefined;

/** A session record's wallet ("<generation>|<expiresAt>|<state>|<wallet>"), '' when there is none. */
const walletOf = (record: string | null): string => /^\d+\|\d+\|[a-z]+\|(.+)$/.exec(record ?? "")?.[1] ?? "";

export const sessionWrites = (client: StoreClient, keys: KeyLayout, maxEvictable: number) => {
  const prelude = (now: number) => [now, maxEvictable, CLOSED_SESSION_MS];

  /** Drops the order's oldest past the cap, naming each one's keys by its record's wallet. */
  const trim = (oldest: ReadonlyArray<string>, now: number) =>
    Effect.gen(function* () {
      let candidates = oldest;
      for (let call = 0; call < MAX_CALLS && candidates.length > 0; call++) {
        const sessionKeys = candidates.map((hash) => keys.session(hash));
        const records = yield* runCommand(() => client.mget(...sessionKeys));
        const wallets = records.map(walletOf);
        const reply = yield* runScript(
          client,
          SCRIPTS.trim,
          [
            keys.evictableSessions,
            ...candidates.flatMap((_hash, i) => [
              sessionKeys[i]!,
              keys.sessionGeneration(wallets[i]!),
              keys.walletSessions(wallets[i]!),
              keys.quota(walletAccount(wallets[i]!)),
            ]),
          ],
          [...prelude(now), ...candidates.flatMap((hash, i) => [hash, wallets[i]!])],
        );
        candidates = hashesOf(reply, "done") ?? [];
      }
    });

  /** Runs a write that declares a wallet's sessions: again with the ones it did not know, then the trim. */
  const declaring = (
    run: (declared: ReadonlyArray<string>) => Effect.Effect<unknown, StoreUnavailable>,
    now: number,
  ) =>
    Effect.gen(function* () {
      let declared: ReadonlyArray<string> = [];
      for (let call = 0; call < MAX_CALLS; call++) {
        const reply = yield* run(declared);
        const missing = hashesOf(reply, "again");
        if (missing !== undefined) {
          declared = [...declared, ...missing];
          continue;
        }
        const oldest = hashesOf(reply, "done");
        if (oldest === undefined) return yield* Effect.fail(unexpected);
        // The write is done: a trim that fails leaves the order over its cap until the next write
        // trims it, and must not fail a sign-in whose session exists (its token would be lost).
        return yield* Effect.ignore(trim(oldest, now));
      }
      return yield* Effect.fail(
        new StoreUnavailable({ reason: "the wallet's sessions kept changing during a session write" }),
      );
    });

  return {
    open: (tokenHash: string, wallet: string, expiresAt: number, now: number) =>
      declaring(
        (declared) =>
          runScript(
            client,
            SCRIPTS.open,
            [
              keys.evictableSessions,
              keys.session(tokenHash),
              keys.sessionGeneration(wallet),
              keys.walletSessions(wallet),
              keys.quota(walletAccount(wallet)),
              ...declared.map((hash) => keys.session(hash)),
            ],
            [...prelude(now), expiresAt, wallet, MAX_SESSIONS_PER_WALLET, tokenHash, ...declared],
          ),
        now,
      ),
    close: (tokenHash: string, now: number) =>
      declaring(
        () =>
          runScript(
            client,
            SCRIPTS.close,
            [keys.evictableSessions, keys.session(tokenHash)],
            [...prelude(now), tokenHash],
          ),
        now,
      ),
    closeAll: (wallet: string, now: number) =>
      declaring(
        (declared) =>
          runScript(
            client,
            SCRIPTS.closeAll,
            [
              keys.evictableSessions,
              keys.sessionGeneration(wallet),
              keys.walletSessions(wallet),
              ...declared.map((hash) => keys.session(hash)),
            ],
            [...prelude(now), ...declared],
          ),
        now,
      ),
  };
};
