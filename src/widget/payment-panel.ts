/**
 * The 402 panel: the price, the five amounts, and three ways to pay (a Wallet Standard wallet,
 * a Solana Pay QR code for a phone, a pasted signature). Wallet and QR code live in the pay
 * bundle, imported only now. Every way ends in the same claim: POST /api/payment, retried while
 * the transfer is not confirmed yet (up to 90 s), with progress shown.
 */

import { h } from "../browser/dom.ts";
import type { Api, PaymentInfo, RateLimit } from "./chat-api.ts";
import type { PayModule } from "./pay/pay-bundle.ts";
import { paymentMessage } from "./payment-messages.ts";

/**
 * Claims are retried every `retryMs` for up to `windowMs`; after sending a transfer the spec's
 * widget waits `firstDelayMs` before the first claim.
 */
const CLAIMS = { windowMs: 90_000, retryMs: 5_000, firstDelayMs: 5_000 } as const;

export interface PaymentPanelDeps {
  readonly api: Api;
  readonly payment: PaymentInfo;
  readonly question: string;
  readonly loadPay: () => Promise<PayModule>;
  readonly onPaid: (granted: number, rateLimit: RateLimit) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const paymentPanel = (deps: PaymentPanelDeps) => {
  const { api, payment } = deps;
  // The service names its amounts (whole questions at its price); these are the default price's.
  const amounts = payment.amounts.length > 0 ? payment.amounts : [0.01, 0.05, 0.1, 0.5, 1];
  const price = Number(payment.pricePerQuery || "0.001");
  const status = h("p", { class: "progress", role: "status", "aria-live": "polite" });
  const problem = h("p", { class: "error", role: "alert", hidden: true });
  let amount = amounts[0] ?? 0.01;
  let busy = false;

  // What happens next is shown where the visitor looks: the panel can be taller than the log.
  const progress = (text: string) => {
    status.textContent = text;
    status.scrollIntoView({ block: "nearest" });
  };
  const fail = (text: string) => {
    problem.textContent = text;
    problem.hidden = false;
    status.textContent = "";
    problem.scrollIntoView({ block: "nearest" });
  };

  /** Claims `signature` for the chosen amount, retrying while it is not confirmed yet. */
  const claim = async (signature: string, waitFirst: boolean) => {
    const claimed = amount;
    const started = Date.now();
    // One key for this claim and all its retries (claim-once.ts on the service).
    const claimKey = crypto.randomUUID().replaceAll("-", "");
    if (waitFirst) {
      progress("Transfer sent. Waiting for it to be confirmed…");
      await sleep(CLAIMS.firstDelayMs);
    }
    for (;;) {
      progress(`Checking the transfer on chain… (${Math.round((Date.now() - started) / 1000)} s)`);
      const result = await api.submitPayment(signature, claimed, claimKey);
      if (result.ok) {
        panel.replaceChildren(
          h(
            "p",
            { class: "success", role: "status" },
            `Payment verified: ${result.granted} questions added.`,
          ),
        );
        deps.onPaid(result.granted, result.rateLimit);
        return;
      }
      if (!result.error.retryable || Date.now() - started + CLAIMS.retryMs > CLAIMS.windowMs)
        return fail(`${paymentMessage(result.error)} (Signature: ${signature})`);
      await sleep(CLAIMS.retryMs);
    }
  };

  /** Runs one way of paying; one at a time, errors shown in the panel. */
  const attempt = async (work: () => Promise<void>) => {
    if (busy) return;
    busy = true;
    problem.hidden = true;
    try {
      await work();
    } catch (cause) {
      fail(cause instanceof Error ? cause.message : String(cause));
    } finally {
      busy = false;
    }
  };

  const amountChoice = h(
    "fieldset",
    { class: "amounts" },
    h("legend", {}, "Amount"),
    ...amounts.map((value, index) => {
      const input = h("input", {
        type: "radio",
        name: "dc-amount",
        value: String(value),
        checked: index === 0,
      });
      input.addEventListener("change", () => {
        amount = value;
      });
      const questions = Math.round(value / price);
      return h("label", {}, input, `${value.toFixed(2)} USDC`, h("small", {}, `${questions} questions`));
    }),
  );

  const walletSection = h("div", { class: "method", hidden: true });
  const qrSection = h("div", { class: "method", hidden: true });
  const signatureInput = h("input", {
    type: "text",
    "aria-label": "Transaction signature",
    placeholder: "Transaction signature",
    autocomplete: "off",
    spellcheck: "false",
  });
  const signatureSubmit = h("button", { type: "button", class: "secondary" }, "Submit");
  signatureSubmit.addEventListener("click", () =>
    attempt(async () => {
      const signature = signatureInput.value.trim();
      if (signature === "") return fail("Paste the signature of your USDC transfer first.");
      await claim(signature, false);
    }),
  );
  const signatureSection = h(
    "div",
    { class: "method", hidden: true },
    h(
      "p",
      {},
      `Sent USDC yourself? Include the memo ${payment.memo} so only you can claim it, then paste the signature.`,
    ),
    h("div", { class: "row" }, signatureInput, signatureSubmit),
  );

  const showWallets = async () => {
    const pay = await deps.loadPay();
    const choices = await pay.findWallets({ apiUrl: deps.api.root, payment });
    const draw = () => {
      const buttons = choices.list().map((wallet) => {
        const button = h(
          "button",
          { type: "button", class: "secondary" },
          h("img", { src: wallet.icon, alt: "" }),
          `Pay with ${wallet.name}`,
        );
        button.addEventListener("click", () =>
          attempt(async () => claim(await wallet.pay(amount, progress), true)),
        );
        return button;
      });
      walletSection.replaceChildren(
        buttons.length > 0
          ? h("div", { class: "wallets" }, ...buttons)
          : h(
              "p",
              {},
              "No Solana wallet found in this browser. Install one (Phantom, Solflare, Backpack…) or pay from your phone.",
            ),
      );
    };
    draw();
    walletSection.scrollIntoView({ block: "nearest" });
    choices.onChange(draw);
  };

  let stopWatching: AbortController | undefined;
  const showQr = async () => {
    const pay = await deps.loadPay();
    stopWatching?.abort();
    stopWatching = new AbortController();
    const claimedAmount = amount;
    const request = pay.solanaPayRequest({ apiUrl: deps.api.root, payment }, claimedAmount);
    const qr = h("div", { class: "qr" });
    qr.innerHTML = request.svg; // our own QR of our own URL (uqr output), never answer text
    qr.firstElementChild?.setAttribute("role", "img");
    qr.firstElementChild?.setAttribute("aria-label", `QR code: pay ${claimedAmount} USDC with Solana Pay`);
    qrSection.replaceChildren(
      h("p", {}, `Scan with a Solana wallet on your phone to pay ${claimedAmount.toFixed(2)} USDC.`),
      qr,
      h("a", { href: request.url, class: "solana-pay-link" }, "Open in a wallet app"),
    );
    progress("Waiting for your payment…");
    const signature = await request.waitForSignature(stopWatching.signal);
    if (signature !== undefined) await attempt(() => claim(signature, false));
  };

  const methods: ReadonlyArray<readonly [string, HTMLElement, () => Promise<void>]> = [
    ["Browser wallet", walletSection, showWallets],
    ["Phone wallet (QR code)", qrSection, showQr],
    ["Paste a signature", signatureSection, async () => signatureInput.focus()],
  ];
  const tabs = methods.map(([label, section, open]) => {
    const button = h("button", { type: "button", class: "secondary", "aria-expanded": "false" }, label);
    button.addEventListener("click", () => {
      for (const [, other] of methods) other.hidden = other !== section;
      for (const tab of tabs) tab.setAttribute("aria-expanded", String(tab === button));
      if (section !== qrSection) stopWatching?.abort();
      problem.hidden = true;
      open().catch((cause: unknown) => fail(cause instanceof Error ? cause.message : String(cause)));
    });
    return button;
  });

  const heading = h("h3", { tabindex: "-1" }, "Buy more questions");
  const panel = h(
    "section",
    { class: "pay", "aria-label": "Buy more questions" },
    heading,
    h(
      "p",
      {},
      `Today's free questions are used up. Each question costs ${price} USDC, paid in USDC on Solana ${payment.network}; paid questions never expire.`,
    ),
    h("p", { class: "note" }, `Your question: “${deps.question}” will be answered once paid.`),
    amountChoice,
    h("div", { class: "methods", role: "group", "aria-label": "How to pay" }, ...tabs),
    ...methods.map(([, section]) => section),
    status,
    problem,
  );
  return { element: panel, focus: () => heading.focus(), close: () => stopWatching?.abort() };
};
