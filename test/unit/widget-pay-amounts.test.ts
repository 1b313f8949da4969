/** The widget's amounts at a site's price: exact units in the transfer and the Solana Pay request. */
import { describe, expect, test } from "bun:test";
import { transferRequestUrl } from "../../src/widget/pay/solana-pay.ts";
import { usdcText, usdcUnits } from "../../src/widget/pay/transfer.ts";

const context = (pricePerQuery?: string) => ({
  apiUrl: "http://127.0.0.1:3000",
  payment: {
    network: "devnet",
    recipient: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
    usdcMint: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
    memo: "docschat:ref",
    ...(pricePerQuery === undefined ? {} : { pricePerQuery }),
  },
});
const REFERENCE = "11111111111111111111111111111111";

describe("the widget's amounts", () => {
  test("units and text are exact to the base unit, with at least two decimals", () => {
    expect(usdcUnits(0.012)).toBe(12_000n);
    expect(usdcUnits(0.999)).toBe(999_000n);
    expect(usdcUnits(0.010003)).toBe(10_003n);
    expect([0.01, 0.1, 1, 0.012, 0.0125].map(usdcText)).toEqual(["0.01", "0.10", "1.00", "0.012", "0.0125"]);
  });

  test("a Solana Pay request asks the amount exactly and names the questions at the price", () => {
    const url = new URL(transferRequestUrl(context("0.003"), 0.012, REFERENCE));
    expect(url.searchParams.get("amount")).toBe("0.012");
    expect(url.searchParams.get("message")).toBe("4 questions");
    const usual = new URL(transferRequestUrl(context(), 0.1, REFERENCE));
    expect(usual.searchParams.get("amount")).toBe("0.10");
    expect(usual.searchParams.get("message")).toBe("100 questions");
  });
});
