/** `npm start`'s signing seed: generated once in the data folder (0600), the same one read back after a restart. */
import { expect, test } from "bun:test";
import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoReceiptSeed } from "../../dev/demo/receipt-key.ts";
import { receiptKeyOf } from "../../src/payments/offer-receipt/receipt-key.ts";

test("the demo seed is made once, kept 0600, and names the same did:key after a restart", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "receipt-key-")), ".data", "receipt-signing-key.hex");
  const first = await demoReceiptSeed(file);
  expect(first).toHaveLength(32);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const again = await demoReceiptSeed(file);
  expect(receiptKeyOf(again).kid).toBe(receiptKeyOf(first).kid);
});

test("a file that holds no seed is replaced by a fresh one", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "receipt-key-")), "key.hex");
  writeFileSync(file, "not a seed\n");
  expect(await demoReceiptSeed(file)).toHaveLength(32);
  expect(await demoReceiptSeed(file)).toEqual(await demoReceiptSeed(file));
});
