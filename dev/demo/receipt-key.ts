/**
 * The demo's offer and receipt signing key (X402_RECEIPT_SIGNING_KEY when it is not set): a
 * 32-byte Ed25519 seed generated once and kept in .data/ (written 0600, like the local chain's
 * keys), so receipts issued by `npm start` still verify under the same did:key after a restart.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

export const DEMO_RECEIPT_KEY_FILE = ".data/receipt-signing-key.hex";
const HEX_SEED = /^[0-9a-f]{64}$/;

/** The seed kept in `file`, generated there first if it is missing or unreadable. */
export const demoReceiptSeed = async (file = DEMO_RECEIPT_KEY_FILE): Promise<Uint8Array> => {
  if (existsSync(file)) {
    const text = (await readFile(file, "utf8")).trim();
    if (HEX_SEED.test(text)) return Uint8Array.from(Buffer.from(text, "hex"));
  }
  const seed = randomBytes(32);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${seed.toString("hex")}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return Uint8Array.from(seed);
};
