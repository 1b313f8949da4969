/**
 * In-process ports for testing the core use cases: a quota store that runs the pure machine
 * (core/quota.ts) at a fixed time, and recording retriever, generator, conversations, chain
 * and payment store. Each records what it was asked, so tests can assert the order of steps.
 */

import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Result from "effect/Result";
import * as Stream from "effect/Stream";
import { hmacSeal } from "../../adapters/shared/hmac-seal.ts";
import { makeMemoryCeilingCounter } from "../../adapters/store-memory/ceilings/memory-ceiling-counter.ts";
import { makeMemoryUnattributed } from "../../adapters/store-memory/payments/memory-unattributed.ts";
import { memoReference } from "../../core/payments/memo-reference.ts";
import { PaymentSettings } from "../../core/payments/payment-settings.ts";
import { DEFAULT_UNATTRIBUTED_BOUNDS } from "../../core/payments/unattributed.ts";
import { CeilingCounter } from "../../core/ports/ceiling-counter.ts";
import { type ChainLookup, ChainReader } from "../../core/ports/chain-reader.ts";
import { Conversations } from "../../core/ports/conversations.ts";
import { type ChatTurn, GenerationFailed, Generator } from "../../core/ports/generator.ts";
import { AlreadyClaimed, PaymentStore } from "../../core/ports/payment-store.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { RequestSeal } from "../../core/ports/request-seal.ts";
import { RetrievalFailed, type RetrievedChunk, Retriever } from "../../core/ports/retrieval.ts";
import { UnattributedPayments } from "../../core/ports/unattributed-payments.ts";
import { WalletCredits } from "../../core/ports/wallet-credits-store.ts";
import {
  commit,
  emptyQuota,
  grant,
  type QuotaLimits,
  type QuotaState,
  release,
  reserve,
  view,
} from "../../core/quota.ts";
import { USDC_MINT, WALLET } from "./parsed-tx.ts";
import { COVERED, OFF_TOPIC } from "./relevance-evidence.ts";

export const FIXED_NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
export const LIMITS: QuotaLimits = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 60_000 };

export interface World {
  quota: QuotaState;
  holdsIssued: number;
  readonly calls: string[];
  /** "off-topic": passages come back, but the evidence says they miss the question. */
  retrieval: "ok" | "fail" | "empty" | "off-topic";
  /** "declines": the model answers that the passages do not cover the question. */
  generation: "ok" | "fail" | "hang" | "declines";
  readonly conversations: Map<string, ChatTurn[]>;
  lookup: ChainLookup;
  readonly claimed: Map<string, { identity: string; queries: number }>;
  /** Makes `claim` lose a race although `isClaimed` said no. */
  raceLost: boolean;
  /** Memo references stored before references were sealed, by identity (Redis's old keys). */
  readonly legacyReferences: Map<string, string>;
}

export const makeWorld = (paid = 0): World => ({
  quota: grant(emptyQuota(FIXED_NOW), FIXED_NOW, paid),
  holdsIssued: 0,
  calls: [],
  retrieval: "ok",
  generation: "ok",
  conversations: new Map(),
  lookup: { kind: "missing" },
  claimed: new Map(),
  raceLost: false,
  legacyReferences: new Map(),
});

export const CHUNKS: ReadonlyArray<RetrievedChunk> = Array.from({ length: 8 }, (_, i) => ({
  id: `c${i}`,
  text: `passage ${i}`,
  title: `Doc ${i}`,
  heading: `Doc ${i} > Part`,
  source: `doc-${i}.md`,
  url: "",
  score: 1 - i / 10,
}));

const quotaLayer = (w: World) =>
  Layer.succeed(QuotaStore, {
    view: () => Effect.sync(() => view(w.quota, FIXED_NOW, LIMITS)),
    reserve: () =>
      Effect.suspend(() => {
        w.calls.push("reserve");
        const result = reserve(w.quota, FIXED_NOW, `hold-${w.holdsIssued++}`, LIMITS);
        if (Result.isFailure(result)) return Effect.fail(result.failure);
        w.quota = result.success[0];
        return Effect.succeed({ hold: result.success[1], view: view(w.quota, FIXED_NOW, LIMITS) });
      }),
    commit: (_identity, holdId) =>
      Effect.sync(() => {
        w.calls.push("commit");
        w.quota = commit(w.quota, FIXED_NOW, holdId);
        return view(w.quota, FIXED_NOW, LIMITS);
      }),
    release: (_identity, holdId) =>
      Effect.sync(() => {
        w.calls.push("release");
        w.quota = release(w.quota, FIXED_NOW, holdId);
        return view(w.quota, FIXED_NOW, LIMITS);
      }),
    ping: Effect.void,
  });

/** These worlds ask without a wallet: any use of wallet credits is a defect of the code under test. */
const noWallets = Layer.succeed(WalletCredits, {
  view: () => Effect.die("no wallet in this world"),
  viewAsPayer: () => Effect.die("no wallet in this world"),
  reserve: () => Effect.die("no wallet in this world"),
  reserveAsPayer: () => Effect.die("no wallet in this world"),
  commit: () => Effect.die("no wallet in this world"),
  release: () => Effect.die("no wallet in this world"),
  holdsCredits: () => Effect.die("no wallet in this world"),
});

const askLayers = (w: World) =>
  Layer.mergeAll(
    quotaLayer(w),
    noWallets,
    Layer.succeed(Retriever, {
      retrieve: (question, k) =>
        Effect.suspend(() => {
          w.calls.push(`retrieve(${k}):${question}`);
          if (w.retrieval === "fail") return Effect.fail(new RetrievalFailed({ message: "index down" }));
          return Effect.succeed({
            chunks: w.retrieval === "empty" ? [] : CHUNKS.slice(0, k),
            evidence: w.retrieval === "off-topic" ? OFF_TOPIC : COVERED,
            indexVersion: "v1",
            language: "en",
            questionLanguage: "en",
          });
        }),
      listing: Effect.succeed({
        version: "v1",
        chunks: CHUNKS.map((chunk) => ({ ...chunk, collection: "docs" })),
      }),
      ping: Effect.void,
    }),
    Layer.succeed(Generator, {
      name: "test",
      generate: (input) =>
        Effect.suspend(() => {
          w.calls.push(`generate:${input.chunks.length}:${input.history.length}`);
          if (w.generation === "fail") return Effect.fail(new GenerationFailed({ message: "llm down" }));
          if (w.generation === "hang") return Effect.never;
          if (w.generation === "declines")
            return Effect.succeed({
              text: "The documentation does not cover this.",
              tokensUsed: 30,
              declined: true,
            });
          return Effect.succeed({ text: `answer to ${input.question} [1]`, tokensUsed: 42 });
        }),
      stream: () => Stream.fail(new GenerationFailed({ message: "not used" })),
    }),
    Layer.succeed(Conversations, {
      recent: (id) => Effect.sync(() => w.conversations.get(id) ?? []),
      append: (id, turns) =>
        Effect.sync(() => void w.conversations.set(id, [...(w.conversations.get(id) ?? []), ...turns])),
    }),
  );

const paymentLayers = (w: World) =>
  Layer.mergeAll(
    Layer.succeed(ChainReader, {
      lookup: (signature) =>
        Effect.sync(() => {
          w.calls.push(`lookup:${signature.slice(0, 6)}`);
          return w.lookup;
        }),
      ping: Effect.void,
    }),
    Layer.succeed(PaymentStore, {
      durable: true,
      isClaimed: (signature) =>
        Effect.sync(() => {
          w.calls.push("isClaimed");
          return w.claimed.has(signature);
        }),
      claim: (signature, identity, queries) =>
        Effect.suspend(() => {
          w.calls.push(`claim:${queries}`);
          if (w.raceLost || w.claimed.has(signature)) return Effect.fail(new AlreadyClaimed());
          w.claimed.set(signature, { identity, queries });
          w.quota = grant(w.quota, FIXED_NOW, queries);
          return Effect.succeed(view(w.quota, FIXED_NOW, LIMITS));
        }),
      markUsed: (signature, usedBy) =>
        Effect.suspend(() => {
          w.calls.push("markUsed");
          if (w.raceLost || w.claimed.has(signature)) return Effect.fail(new AlreadyClaimed());
          w.claimed.set(signature, { identity: usedBy, queries: 0 });
          return Effect.void;
        }),
      legacyReference: (identity) => Effect.succeed(w.legacyReferences.get(identity)),
    }),
  );

/** The payment terms of the use-case tests: USDC_MINT to WALLET on devnet, a durable ledger. */
export const SETTINGS = PaymentSettings.of({
  network: "devnet",
  usdcMint: USDC_MINT,
  wallet: WALLET,
  unitsPerQuery: 1_000n,
  memoPrefix: "docs-chat:",
  memoRequired: false,
  paidDailyCap: LIMITS.paidDailyCap,
  notBefore: undefined,
});

/** The seal key of the use-case worlds, and the memo reference it gives an identity under SETTINGS. */
const SEAL = hmacSeal("11".repeat(32));
export const referenceOf = (identity: string): string =>
  memoReference(SEAL.mac, SETTINGS.memoPrefix, identity);

/** Every port a use case may need, backed by `w`. */
export const worldLayer = (w: World, settings: PaymentSettings["Service"] = SETTINGS) =>
  Layer.mergeAll(
    askLayers(w),
    paymentLayers(w),
    Layer.succeed(PaymentSettings, settings),
    // The memory store's counter of ceilings (chain lookups, free questions across sites): these
    // worlds ask far below them.
    Layer.succeed(CeilingCounter, makeMemoryCeilingCounter().counter),
    // The memory store's own list of unattributed payments, and a seal key of its own.
    Layer.succeed(UnattributedPayments, makeMemoryUnattributed(DEFAULT_UNATTRIBUTED_BOUNDS).store),
    Layer.succeed(RequestSeal, SEAL),
  );
