/**
 * Every port a store provides, named once: the memory store, the Redis store, the composition
 * root and the runtime's services all take this list, so a new port is added in one place and
 * an adapter that forgets it fails to compile.
 */
import type { CeilingCounter } from "./ceiling-counter.ts";
import type { Conversations } from "./conversations.ts";
import type { FeedbackStore } from "./feedback-store.ts";
import type { InsightsStore } from "./insights-store.ts";
import type { PaidResults } from "./paid-results.ts";
import type { PaymentRequests } from "./payment-requests.ts";
import type { PaymentStore } from "./payment-store.ts";
import type { PendingSettlements } from "./pending-settlements.ts";
import type { QuotaStore } from "./quota-store.ts";
import type { RequestSeal } from "./request-seal.ts";
import type { SettlementLocks } from "./settlement-locks-store.ts";
import type { SponsorLosses } from "./sponsor-losses-store.ts";
import type { UnattributedPayments } from "./unattributed-payments.ts";
import type { WalletCredits } from "./wallet-credits-store.ts";
import type { WalletSessions } from "./wallet-sessions.ts";

/** The services of a store layer. */
export type StoreServices =
  | QuotaStore
  | PaymentStore
  | PaymentRequests
  | FeedbackStore
  | InsightsStore
  | SettlementLocks
  | PendingSettlements
  | SponsorLosses
  | CeilingCounter
  | WalletCredits
  | WalletSessions
  | RequestSeal
  | UnattributedPayments
  | PaidResults
  | Conversations;
