/**
 * Many sites' indexes in one process, in bounded memory (SITES_MEMORY_MB).
 *
 * Rule: a site's index is loaded on the site's first use (a retrieve or a listing), built into
 * a Scope of its own; whenever the indexes held add up to more than the budget,
 * the least recently used ones are dropped (their Scope closed) until the total fits again,
 * and a dropped index loads again on its next use. Two limits keep answers whole:
 *   - an index that a call in flight uses (its reference count above 0) is never dropped;
 *   - the most recently used index is never dropped, even when it alone exceeds the budget:
 *     dropping it would reload it on every question and never bring the total down.
 * So the total can exceed the budget by the indexes in use at that moment, never for long.
 * Concurrent first uses share one load (a Deferred every caller awaits); a failed load leaves
 * the site unloaded and is remembered for FAILED_LOAD_HELD_MS: meanwhile a use fails at once
 * with the same error, without loading or spending the cold-load budget (a broken index would
 * otherwise spend one load per request); the first use after it tries again. A ping (/readyz, public) never loads: an
 * index not held is "ready" (it loads on the first question), so a stranger asking every
 * site's /readyz cannot make the service load 50 indexes and drop the ones in use.
 *
 * Size: what each adapter reports when it (re)loads an index (`IndexSize`, adapter-layers.ts
 * `IndexLoaded.bytes`): the local index's file size (its snapshot keeps the file's bytes and
 * decodes from them), a Chroma snapshot's strings at 2 bytes a character plus its lexical
 * tables. A re-index that grows a held index is counted when it is swapped in.
 */
import * as Cause from "effect/Cause";
import * as Context from "effect/Context";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Scope from "effect/Scope";
import { RetrievalAsker, RetrievalFailed, Retriever } from "../../core/ports/retrieval.ts";

/** The default budget, in MiB (SITES_MEMORY_MB). */
export const DEFAULT_SITES_MEMORY_MB = 512;
export const MIB = 1024 * 1024;

/** How long a failed load is answered from memory before the index is tried again. */
export const FAILED_LOAD_HELD_MS = 60_000;

/** What a loaded index holds, as its adapter reports it. */
export interface IndexSize {
  readonly bytes: number;
  readonly chunks: number;
}

/** One site's retrieval layer, telling `onSize` whenever it loads an index. */
export type SiteRetrieval = (
  onSize: (size: IndexSize) => void,
) => Layer.Layer<Retriever, { readonly message: string }>;

/** A site's index as the manager holds it. */
export interface HeldIndex extends IndexSize {
  readonly site: string;
  readonly state: "loading" | "loaded";
  /** Calls in flight on it. */
  readonly inUse: number;
}

export interface SiteIndexEvents {
  /**
   * Asked before a load starts (not for an index loaded or loading), with whom the use is for:
   * undefined admits it, a number refuses it for that many ms (the cold loads are spent, cold-loads.ts).
   */
  readonly admitLoad?: (asker: RetrievalAsker) => number | undefined;
  /** The clock a failed load is remembered by. */
  readonly now?: () => number;
  readonly onLoad?: (site: string, size: IndexSize) => void;
  /** An index dropped to bring the total back under the budget; `heldBytes` is the total after. */
  readonly onDrop?: (site: string, size: IndexSize, heldBytes: number) => void;
}

export interface SiteIndexes {
  /** The Retriever of `site`; its index is built from `retrieval` on first use and after a drop. */
  readonly retriever: (site: string, retrieval: SiteRetrieval) => Retriever["Service"];
  readonly held: () => ReadonlyArray<HeldIndex>;
  /** Bytes the loaded indexes hold together. */
  readonly heldBytes: () => number;
  /** Drops a site's index (a site removed or reconfigured), once its calls in flight are done. */
  readonly forget: (site: string) => void;
  /** Drops every index. */
  readonly close: () => Promise<void>;
}

type State =
  | { readonly tag: "idle" }
  | { readonly tag: "loading"; readonly done: Deferred.Deferred<Retriever["Service"], RetrievalFailed> }
  | { readonly tag: "loaded"; readonly retriever: Retriever["Service"]; readonly scope: Scope.Closeable };

interface Entry {
  readonly site: string;
  retrieval: SiteRetrieval;
  state: State;
  /** Which load the size reports belong to: a report of an earlier, dropped load is ignored. */
  load: object;
  size: IndexSize;
  refs: number;
  lastUse: number;
  /** The last load failed: its error, answered until `until` (epoch ms). */
  failed: { readonly error: RetrievalFailed; readonly until: number } | undefined;
}

const NOTHING: IndexSize = { bytes: 0, chunks: 0 };

const closeScope = (scope: Scope.Closeable) => Effect.runFork(Scope.close(scope, Exit.void));

/** The manager of the sites' indexes, holding at most about `budgetBytes` (see the header). */
export const makeSiteIndexes = (budgetBytes: number, events: SiteIndexEvents = {}): SiteIndexes => {
  const entries = new Map<string, Entry>();
  let clock = 0;
  const now = events.now ?? Date.now;

  const heldBytes = () => {
    let total = 0;
    for (const entry of entries.values()) if (entry.state.tag !== "idle") total += entry.size.bytes;
    return total;
  };

  const unload = (entry: Entry) => {
    if (entry.state.tag === "loaded") closeScope(entry.state.scope);
    entry.state = { tag: "idle" };
    entry.load = {};
    entry.size = NOTHING;
  };

  /** Drops the least recently used idle indexes while the total exceeds the budget. */
  const enforce = () => {
    let total = heldBytes();
    if (total <= budgetBytes) return;
    const newest = Math.max(...Array.from(entries.values(), (entry) => entry.lastUse));
    const victims = Array.from(entries.values())
      .filter((entry) => entry.state.tag === "loaded" && entry.refs === 0 && entry.lastUse !== newest)
      .sort((a, b) => a.lastUse - b.lastUse);
    for (const entry of victims) {
      if (total <= budgetBytes) break;
      const size = entry.size;
      unload(entry);
      total -= size.bytes;
      events.onDrop?.(entry.site, size, total);
    }
  };

  /** Starts the one load of `entry`, in a fiber of its own so that no caller's interruption strands the others. */
  const startLoad = (entry: Entry) => {
    const done = Deferred.makeUnsafe<Retriever["Service"], RetrievalFailed>();
    const load = {};
    entry.state = { tag: "loading", done };
    entry.load = load;
    const scope = Scope.makeUnsafe();
    const onSize = (size: IndexSize) => {
      if (entry.load !== load) return;
      entry.size = size;
      events.onLoad?.(entry.site, size);
      // A re-index swapped in later may have grown the index.
      if (entry.state.tag === "loaded") enforce();
    };
    const program = Layer.buildWithScope(entry.retrieval(onSize), scope).pipe(
      Effect.map((context) => Context.get(context, Retriever)),
      Effect.mapError((error) =>
        error instanceof RetrievalFailed ? error : new RetrievalFailed({ message: error.message }),
      ),
      Effect.exit,
      Effect.flatMap((exit) =>
        Effect.sync(() => {
          const current = entries.get(entry.site) === entry && entry.load === load;
          if (Exit.isSuccess(exit) && current) {
            entry.state = { tag: "loaded", retriever: exit.value, scope };
            entry.failed = undefined;
            enforce();
          } else {
            const error = Exit.isFailure(exit) ? Cause.findErrorOption(exit.cause) : Option.none();
            if (current && Option.isSome(error))
              entry.failed = { error: error.value, until: now() + FAILED_LOAD_HELD_MS };
            // Forgotten or closed while loading: the callers waiting still get this index for
            // their one call (an adapter's scope holds only its re-index poll), nobody keeps it.
            closeScope(scope);
            if (current) unload(entry);
          }
          Deferred.doneUnsafe(done, exit);
        }),
      ),
    );
    Effect.runFork(program);
    return done;
  };

  const ready = (entry: Entry): Effect.Effect<Retriever["Service"], RetrievalFailed> =>
    Effect.suspend(() => {
      switch (entry.state.tag) {
        case "loaded":
          return Effect.succeed(entry.state.retriever);
        case "loading":
          return Deferred.await(entry.state.done);
        case "idle": {
          if (entry.failed !== undefined && now() < entry.failed.until)
            return Effect.fail(entry.failed.error);
          return Effect.flatMap(RetrievalAsker, (asker) => {
            const wait = events.admitLoad?.(asker);
            if (wait !== undefined)
              return Effect.fail(
                new RetrievalFailed({ message: "the cold index loads are spent", retryAfterMs: wait }),
              );
            return Deferred.await(startLoad(entry));
          });
        }
      }
    });

  /** Runs `use` on the site's index, holding a reference to it for the whole call. */
  const using = <A>(
    site: string,
    retrieval: SiteRetrieval,
    use: (retriever: Retriever["Service"]) => Effect.Effect<A, RetrievalFailed>,
  ) =>
    Effect.acquireUseRelease(
      Effect.sync(() => {
        let entry = entries.get(site);
        if (entry === undefined) {
          entry = {
            site,
            retrieval,
            state: { tag: "idle" },
            load: {},
            size: NOTHING,
            refs: 0,
            lastUse: 0,
            failed: undefined,
          };
          entries.set(site, entry);
        }
        entry.refs += 1;
        entry.lastUse = ++clock;
        return entry;
      }),
      (entry) => Effect.flatMap(ready(entry), use),
      (entry) =>
        Effect.sync(() => {
          entry.refs -= 1;
          // A forgotten site's index is closed by its last call in flight.
          if (entries.get(site) !== entry) {
            if (entry.refs === 0) unload(entry);
          } else enforce();
        }),
    );

  return {
    retriever: (site, retrieval) =>
      Retriever.of({
        retrieve: (question, k) => using(site, retrieval, (inner) => inner.retrieve(question, k)),
        listing: using(site, retrieval, (inner) => inner.listing),
        ping: Effect.suspend(() =>
          entries.get(site)?.state.tag === "loaded"
            ? using(site, retrieval, (inner) => inner.ping)
            : Effect.void,
        ),
      }),
    held: () =>
      Array.from(entries.values()).flatMap((entry) =>
        entry.state.tag === "idle"
          ? []
          : [{ site: entry.site, state: entry.state.tag, inUse: entry.refs, ...entry.size }],
      ),
    heldBytes,
    forget: (site) => {
      const entry = entries.get(site);
      if (entry === undefined) return;
      entries.delete(site);
      if (entry.refs === 0) unload(entry);
    },
    close: async () => {
      const scopes = Array.from(entries.values()).flatMap((entry) =>
        entry.state.tag === "loaded" ? [entry.state.scope] : [],
      );
      for (const entry of entries.values()) entry.load = {};
      entries.clear();
      await Promise.all(scopes.map((scope) => Effect.runPromise(Scope.close(scope, Exit.void))));
    },
  };
};
