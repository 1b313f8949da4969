/** Every payment refusal the service can send has its own sentence in the widget, not a fallback. */
import { describe, expect, test } from "bun:test";
import { CLAIM_REJECTION_REASONS } from "../../core/payments/payment-rejected.ts";
import { REJECTIONS } from "../../src/payments/payment-rejections.ts";
import { paymentMessage } from "../../src/widget/payment-messages.ts";

// The refusals of POST /api/payment, the widget's way of paying (not the X-Payment-Authorization ones).
const PAYMENT_REFUSALS = [...new Set(CLAIM_REJECTION_REASONS.map((reason) => REJECTIONS[reason].code))];

describe("payment messages", () => {
  test.each(PAYMENT_REFUSALS)("%s has its own message", (code) => {
    const fallback = "the service's own text";
    const message = paymentMessage({ status: 400, code, error: fallback });
    expect(message).not.toBe(fallback);
    expect(message.length).toBeGreaterThan(20);
  });

  test("no two refusals share a sentence: each tells the visitor something different", () => {
    const codes = [...PAYMENT_REFUSALS, "CHAIN_UNAVAILABLE", "STORE_UNAVAILABLE", "RATE_LIMITED", "NETWORK"];
    const messages = codes.map((code) => paymentMessage({ status: 400, code, error: "fallback" }));
    const shared = messages.filter((message, i) => messages.indexOf(message) !== i);
    expect(shared).toEqual([]);
    expect(messages).not.toContain("fallback");
  });

  test("the commonest refusals say what happened", () => {
    expect(paymentMessage({ status: 400, code: "WRONG_TOKEN", error: "" })).toContain(
      "another token, not USDC",
    );
    expect(paymentMessage({ status: 400, code: "SIGNATURE_ALREADY_USED", error: "" })).toContain(
      "already used",
    );
    expect(paymentMessage({ status: 503, code: "CHAIN_UNAVAILABLE", error: "" })).toContain(
      "transfer is safe",
    );
  });

  test("an unknown code falls back to the service's text", () => {
    expect(paymentMessage({ status: 400, code: "SOMETHING_NEW", error: "Something new" })).toBe(
      "Something new",
    );
  });
});
