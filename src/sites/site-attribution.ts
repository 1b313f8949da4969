/**
 * The service's TransferAttribution (core/ports/transfer-attribution.ts): every open site's
 * seal, wallet and list of unattributed payments, and the default site's. A payment id any of
 * them sealed is that site's; a transfer none can attribute is listed on its wallet's owner: the
 * default site for the service's wallet (the operator holds it, and hosted sites without a
 * wallet of their own receive there), else the first site by id receiving in that wallet.
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import { PaymentSettings } from "../../core/payments/payment-settings.ts";
import { isSealedPaymentId } from "../../core/payments/sealed-request.ts";
import { RequestSeal } from "../../core/ports/request-seal.ts";
import { TransferAttribution } from "../../core/ports/transfer-attribution.ts";
import { UnattributedPayments } from "../../core/ports/unattributed-payments.ts";

/** What the attribution reads of one site. */
export interface AttributedSite {
  readonly wallet: string;
  readonly mac: RequestSeal["Service"]["mac"];
  readonly unattributed: UnattributedPayments["Service"];
}

/** The default site's part, read from its runtime's services. */
export const defaultSiteAttribution = (
  context: Context.Context<RequestSeal | UnattributedPayments | PaymentSettings>,
): AttributedSite => ({
  wallet: Context.get(context, PaymentSettings).wallet,
  mac: Context.get(context, RequestSeal).mac,
  unattributed: Context.get(context, UnattributedPayments),
});

/**
 * The service's attribution, made before any site opens: `root` gives it the root (default)
 * site's part once its runtime is built, `open` and `close` follow the hosted sites.
 */
export const siteAttribution = () => {
  let defaultSite: AttributedSite | undefined;
  const sites = new Map<string, AttributedSite>();
  const ownerOf = (wallet: string): AttributedSite | undefined => {
    if (defaultSite?.wallet === wallet) return defaultSite;
    const ids = [...sites.keys()].filter((id) => sites.get(id)?.wallet === wallet).sort();
    return ids[0] === undefined ? undefined : sites.get(ids[0]);
  };
  const service = TransferAttribution.of({
    sealedByAnySite: (paymentId) =>
      [defaultSite, ...sites.values()].some(
        (site) => site !== undefined && isSealedPaymentId(site.mac, paymentId),
      ),
    listUnattributed: (wallet, payment, now) =>
      Effect.suspend(() => ownerOf(wallet)?.unattributed.record(payment, now) ?? Effect.void),
  });
  return {
    service,
    root: (site: AttributedSite) => {
      defaultSite = site;
    },
    open: (id: string, site: AttributedSite) => {
      sites.set(id, site);
    },
    close: (id: string) => {
      sites.delete(id);
    },
  };
};

export type SiteAttribution = ReturnType<typeof siteAttribution>;
