/** Every payment refusal the service can send has its own sentence in the widget, not a fallback. */
import { describe, expect, test } from "bun:test";
import { REJECTIONS } from "../../src/http/payment-rejections.ts";
import { paymentMessage } from "../../src/widget/payment-messages.ts";

const PAYMENT_REFUSALS = [...new Set(Object.values(REJECTIONS).map((rejection) => rejection.code))];

describe("payment messages", () => {
  test.each(PAYMENT_REFUSALS)("%s has its own message", (code) => {
    const fallback = "the service's own text";
    const message = paymentMessage({ status: 400, code, error: fallback });
    expect(message).not.toBe(fallback);
    expect(message.length).toBeGreaterThan(20);
  });

  test("the ones the issue names say what happened", () => {
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
