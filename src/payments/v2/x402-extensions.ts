/**
 * What this service adds to its x402 v2 messages beside the payment terms: each
 * PaymentRequired gets the resource's bazaar declaration and service metadata (name, tags,
 * icon on `resource`) and, with a signing key, one signed offer per `accepts[]` entry; each
 * successful settlement gets a signed receipt. Built once at composition and carried with the
 * facilitator, so every place that builds a 402 or a PAYMENT-RESPONSE (the paywall, /api/chat,
 * MCP tools) adds them with one call.
 */
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import { BAZAAR, type BazaarExtension, bazaarExtension } from "../bazaar/bazaar-declaration.ts";
import type { ServiceMetadata } from "../bazaar/service-metadata.ts";
import type { ReceiptKey } from "../offer-receipt/receipt-key.ts";
import {
  OFFER_RECEIPT,
  offersExtension,
  receiptExtension,
  type SignedArtifact,
  signedReceipt,
} from "../offer-receipt/signed-artifacts.ts";
import type { DiscoveryEntry } from "./discovery.ts";
import type { X402Extensions } from "./extensions-hook.ts";
import { PAYMENT_RESPONSE_HEADER } from "./wire.ts";

export interface X402ExtensionsSetup {
  /** The offer and receipt key; undefined: nothing is signed. */
  readonly key: ReceiptKey | undefined;
  /** The paid resources, declared for bazaar by their binding's resource. */
  readonly entries: ReadonlyArray<DiscoveryEntry>;
  readonly service: ServiceMetadata;
  /** The wall clock (epoch ms); default Date.now. */
  readonly now?: () => number;
  /**
   * PUBLIC_ORIGIN: the origin signed offers and receipts name, whatever Host a request sent (the
   * Host guard is off on an open bind without it, and a signed artifact must not name a domain a
   * client chose). Unset: the request's own URL (loopback binds serve loopback Hosts only).
   */
  readonly publicOrigin?: string | undefined;
}

/** The receipt a settlement carries, if any. */
export const receiptOf = (settlement: SettleResponse): SignedArtifact | undefined => {
  const extension = settlement.extensions?.[OFFER_RECEIPT] as
    | { info?: { receipt?: SignedArtifact } }
    | undefined;
  return extension?.info?.receipt;
};

/** The receipt of the PAYMENT-RESPONSE among `headers` (a paid answer's), if any. */
export const receiptInHeaders = (headers: Readonly<Record<string, string>>): SignedArtifact | undefined => {
  const header = headers[PAYMENT_RESPONSE_HEADER];
  return header === undefined ? undefined : receiptOf(decodePaymentResponseHeader(header));
};

export const x402Extensions = (setup: X402ExtensionsSetup): X402Extensions => {
  const now = setup.now ?? Date.now;
  const seconds = () => Math.floor(now() / 1000);
  // Declared once: the same schemas on every 402.
  const declared = new Map<string, BazaarExtension>(
    setup.entries.map((entry) => [entry.priced.binding.resource, bazaarExtension(entry)]),
  );
  const canonical = (url: string): string => {
    if (setup.publicOrigin === undefined || !URL.canParse(url)) return url;
    const { pathname, search } = new URL(url);
    return `${setup.publicOrigin.replace(/\/+$/, "")}${pathname}${search}`;
  };
  return {
    offered: (required, resource) => {
      const bazaar = declared.get(resource);
      const described: PaymentRequired = {
        ...required,
        resource: { ...required.resource, url: canonical(required.resource.url), ...setup.service },
        extensions: { ...required.extensions, ...(bazaar === undefined ? {} : { [BAZAAR]: bazaar }) },
      };
      if (setup.key === undefined) return described;
      return {
        ...described,
        extensions: {
          ...described.extensions,
          [OFFER_RECEIPT]: offersExtension(described, setup.key, seconds()),
        },
      };
    },
    settled: (settlement, resourceUrl) => {
      if (!settlement.success || setup.key === undefined) return settlement;
      const receipt = signedReceipt(settlement, canonical(resourceUrl), setup.key, seconds());
      return {
        ...settlement,
        extensions: { ...settlement.extensions, [OFFER_RECEIPT]: receiptExtension(receipt) },
      };
    },
  };
};

/** `settlement` with the extensions of `extensions` when there are any. */
export const settledWith = (
  extensions: X402Extensions | undefined,
  settlement: SettleResponse,
  resourceUrl: string,
): SettleResponse => (extensions === undefined ? settlement : extensions.settled(settlement, resourceUrl));

/** `facilitator` whose 402s and settlements carry the extensions of `setup`. */
export const withX402Extensions = <F extends { readonly extensions?: X402Extensions | undefined }>(
  facilitator: F | undefined,
  setup: X402ExtensionsSetup,
): F | undefined =>
  facilitator === undefined ? undefined : { ...facilitator, extensions: x402Extensions(setup) };
