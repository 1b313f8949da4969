/**
 * The x402 discovery manifest (`/.well-known/x402.json`, the well-known-discovery extension): a
 * projection of the priced resources the live 402s are built from, with the same exact-scheme
 * requirements (price, asset, payTo, network, fee payer) and how to call each. Advisory, as the
 * extension says: the live 402 (its memo, its expiry) is authoritative. Without x402 v2 on offer
 * (no facilitator, or its fee payer below the floor) nothing can be paid in v2, and the manifest
 * lists no items. Each item declares payment-identifier as its live 402 does (whether an id is
 * required), so an agent knows before its first call that it may name, and safely resend, a payment.
 */
import type { PaymentRequirements, ResourceInfo } from "@x402/core/types";
import type { PricedResource } from "../priced-resources.ts";
import { DEFAULT_EXPIRES_IN_SECONDS } from "../server/paywall-options.ts";
import { paymentIdentifierExtensions } from "./payment-identifier-wire.ts";
import { type ExactOffer, exactRequirements } from "./wire.ts";

/** One paid resource as its room declares it for discovery. */
export interface DiscoveryEntry {
  readonly priced: PricedResource;
  readonly type: "http" | "mcp";
  /** Where on this origin a client calls it ("/api/chat", "/mcp"). */
  readonly path: string;
  /** How to call it: method and body schema (HTTP), or toolName, inputSchema and transport (MCP). */
  readonly input: Readonly<Record<string, unknown>>;
  readonly output?: Readonly<Record<string, unknown>>;
  /** A call and its answer, as the bazaar extension shows them (valid against input and output). */
  readonly example?: { readonly input: Readonly<Record<string, unknown>>; readonly output: unknown };
}

export interface DiscoveryItem {
  readonly resource: ResourceInfo;
  readonly type: string;
  readonly accepts: ReadonlyArray<PaymentRequirements>;
  readonly input: Readonly<Record<string, unknown>>;
  readonly output?: Readonly<Record<string, unknown>>;
  readonly extensions: Readonly<Record<string, unknown>>;
}

export interface DiscoveryManifest {
  readonly x402Version: 2;
  /** When the entries were resolved (Unix seconds). */
  readonly lastUpdated: number;
  readonly items: ReadonlyArray<DiscoveryItem>;
}

/** The manifest for `origin`; `offer` undefined: x402 v2 is not offered now, so no items. */
export const discoveryManifest = (options: {
  readonly entries: ReadonlyArray<DiscoveryEntry>;
  readonly terms: { readonly wallet: string; readonly usdcMint: string };
  readonly offer: Omit<ExactOffer, "blockhash"> | undefined;
  readonly origin: string;
  readonly lastUpdated: number;
}): DiscoveryManifest => {
  const { offer, terms } = options;
  return {
    x402Version: 2,
    lastUpdated: options.lastUpdated,
    items:
      offer === undefined
        ? []
        : options.entries.map((entry) => ({
            resource: {
              url: `${options.origin}${entry.path}`,
              description: entry.priced.description,
              mimeType: "application/json",
            },
            type: entry.type,
            accepts: [
              exactRequirements({
                units: entry.priced.units,
                asset: terms.usdcMint,
                payTo: terms.wallet,
                maxTimeoutSeconds: DEFAULT_EXPIRES_IN_SECONDS,
                offer,
              }),
            ],
            input: entry.input,
            ...(entry.output === undefined ? {} : { output: entry.output }),
            extensions: paymentIdentifierExtensions(offer.paymentIdRequired ?? false),
          })),
  };
};
