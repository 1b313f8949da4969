/** fast-check arbitraries for the pure core: addresses, authorizations, quota limits and op sequences. */
import fc from "fast-check";
import { encodeBase58 } from "../../core/base58.ts";
import type { PaymentAuthorization, PaymentRequest } from "../../core/payments/x402.ts";
import type { QuotaLimits } from "../../core/quota.ts";
import { DAY_MS } from "../../core/time.ts";

/** A base58 address: any 32 bytes. */
export const address = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(encodeBase58);
/** A base58 transaction signature: any 64 bytes. */
export const txSignature = fc.uint8Array({ minLength: 64, maxLength: 64 }).map(encodeBase58);

const isoTime = fc.oneof(
  fc
    .date({
      min: new Date("2000-01-01T00:00:00Z"),
      max: new Date("2099-12-31T23:59:59Z"),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString()),
  fc
    .tuple(
      fc.integer({ min: 2000, max: 2099 }),
      fc.integer({ min: 0, max: 86_399 }),
      fc.constantFrom("+02:00", "-05:30", "Z"),
    )
    .map(([year, second, zone]) => {
      const pad = (n: number) => String(n).padStart(2, "0");
      return `${year}-06-15T${pad(Math.floor(second / 3600))}:${pad(Math.floor(second / 60) % 60)}:${pad(second % 60)}${zone}`;
    }),
);

const id = fc.stringMatching(/^[A-Za-z0-9_-]{8,128}$/);
const decimal = fc.stringMatching(/^\d{1,15}(\.\d{1,18})?$/);
export const x402Network = fc.constantFrom(
  "chain-devnet" as const,
  "chain-testnet" as const,
  "chain-mainnet" as const,
);

/** Every payment request the 402 body schema must accept. */
export const paymentRequest: fc.Arbitrary<PaymentRequest> = fc.record({
  max_amount_required: decimal,
  asset_type: fc.constant("SPL" as const),
  asset_address: address,
  payment_address: address,
  network: x402Network,
  expires_at: isoTime,
  nonce: id,
  payment_id: id,
  resource: fc.string({ unit: "binary", maxLength: 200 }),
  description: fc.string({ unit: "binary", maxLength: 200 }),
});

/** Every authorization the header schema must accept. */
export const authorization: fc.Arbitrary<PaymentAuthorization> = fc.record({
  payment_id: id,
  actual_amount: decimal,
  payment_address: address,
  asset_address: address,
  network: x402Network,
  timestamp: isoTime,
  // An ed25519 signature: any 64 bytes, base58 (the codec does not check it against the key).
  signature: txSignature,
  public_key: address,
  transaction_hash: txSignature,
});

/** Small limits, so the free quota, the daily cap and hold lapses are all reached. */
export const quotaLimits: fc.Arbitrary<QuotaLimits> = fc.record({
  freePerDay: fc.integer({ min: 0, max: 4 }),
  paidDailyCap: fc.integer({ min: 1, max: 4 }),
  holdTtlMs: fc.integer({ min: 1_000, max: 120_000 }),
});

/** A start time anywhere in a day of 2025. */
export const startTime = fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2025, 0, 1) + DAY_MS - 1 });

export type Advance =
  | { readonly kind: "small"; readonly ms: number }
  | { readonly kind: "pastTtl"; readonly extraMs: number }
  | { readonly kind: "midnight"; readonly offsetMs: number }
  | { readonly kind: "days"; readonly days: number };

export const advance: fc.Arbitrary<Advance> = fc.oneof(
  fc.record({ kind: fc.constant("small" as const), ms: fc.integer({ min: 0, max: 5_000 }) }),
  fc.record({ kind: fc.constant("pastTtl" as const), extraMs: fc.integer({ min: 0, max: 1_000 }) }),
  fc.record({ kind: fc.constant("midnight" as const), offsetMs: fc.integer({ min: -3_000, max: 3_000 }) }),
  fc.record({ kind: fc.constant("days" as const), days: fc.integer({ min: 1, max: 3 }) }),
);

/** The new time after `step`; never goes backwards. */
export const advanced = (now: number, step: Advance, limits: QuotaLimits): number => {
  switch (step.kind) {
    case "small":
      return now + step.ms;
    case "pastTtl":
      return now + limits.holdTtlMs + step.extraMs;
    case "midnight":
      return Math.max(now, (Math.floor(now / DAY_MS) + 1) * DAY_MS + step.offsetMs);
    case "days":
      return now + step.days * DAY_MS;
    default:
      return step satisfies never;
  }
};

export type QuotaOp =
  | { readonly kind: "reserve" }
  | { readonly kind: "commit"; readonly pick: number }
  | { readonly kind: "release"; readonly pick: number }
  | { readonly kind: "grant"; readonly queries: number }
  | { readonly kind: "advance"; readonly step: Advance };

/** Random quota operations; `pick` chooses among the hold ids issued so far (settled ones too). */
export const quotaOp: fc.Arbitrary<QuotaOp> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: "reserve" as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("commit" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("release" as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("grant" as const), queries: fc.integer({ min: 1, max: 6 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("advance" as const), step: advance }) },
);
