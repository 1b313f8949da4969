/**
 * The quickest reads of the two busiest requests, GET /api/status and GET /api/payment/info,
 * outside the effect runtime: the value at once where no I/O stands behind it (the memory
 * store), else a plain promise (Redis). The runtime around one read cost a tenth of a status
 * request on memory, more on Redis (docs/performance.md). Every store provides them, and they
 * read and decide exactly as spenderView and PaymentStore.referenceFor do at the runtime's
 * clock (the store contract suite holds them equal). A failure is a StoreUnavailable value,
 * never a rejection.
 */
import * as Context from "effect/Context";
import type { QuotaView } from "../quota.ts";
import type { StoreUnavailable } from "./store-errors.ts";

/** A session's lookup and, when it is active, what its holder may spend (its identity's and its wallet's). */
export type SessionView =
  | { readonly kind: "active"; readonly wallet: string; readonly view: QuotaView }
  | { readonly kind: "revoked" }
  | { readonly kind: "unknown" };

/** A value now, or a promise of it that never rejects. */
export type Quick<A> = A | Promise<A | StoreUnavailable>;

export class QuickReads extends Context.Service<
  QuickReads,
  {
    /**
     * As spenderView (core/use-cases/spend-query.ts) of a client without a session, now: its
     * identity's view, plus what its payer link leaves it of the wallet it paid with. One read:
     * the link and both quotas in one step (one script call on Redis).
     */
    readonly spenderView: (identity: string) => Quick<QuotaView>;
    /**
     * As WalletSessions.find of the session, then spenderView of the identity with that
     * session's wallet, now: one read (one script call on Redis).
     */
    readonly sessionView: (identity: string, tokenHash: string) => Quick<SessionView>;
    /** As PaymentStore.referenceFor, now. */
    readonly referenceFor: (identity: string) => Quick<string>;
  }
>()("core/QuickReads") {}
