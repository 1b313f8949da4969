/**
 * GET /.well-known/did.json: the did:web document of PUBLIC_ORIGIN, listing the key that signs
 * this service's x402 offers and receipts, so a verifier resolving a receipt's `kid` finds the
 * key under the domain its `resourceUrl` names. Served only when the key is named by did:web.
 */
import { Hono } from "hono";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import type { ReceiptKey } from "../../payments/offer-receipt/receipt-key.ts";

export const didDocumentRoutes = (key: ReceiptKey | undefined) => {
  const document = key?.didDocument;
  const routes = new Hono<AppEnv>();
  if (document === undefined) return routes;
  return routes.get("/did.json", (c) =>
    c.json(document, 200, { "Content-Type": "application/did+json", "Cache-Control": "public, max-age=300" }),
  );
};
