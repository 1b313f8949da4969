/** Bitcoin-alphabet base58, as used for Solana addresses and signatures. */
export const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const ALPHABET = BASE58_ALPHABET;
const INDEX = new Map([...ALPHABET].map((char, i) => [char, i] as const));

/** Decodes base58 text; undefined when a character is outside the alphabet. */
export const decodeBase58 = (text: string): Uint8Array | undefined => {
  const bytes: number[] = [];
  for (const char of text) {
    const digit = INDEX.get(char);
    if (digit === undefined) return undefined;
    let carry = digit;
    for (let i = 0; i < bytes.length; i++) {
      carry += (bytes[i] ?? 0) * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (const char of text) {
    if (char !== "1") break;
    bytes.push(0);
  }
  return Uint8Array.from(bytes.reverse());
};

/** Encodes bytes as base58 text. */
export const encodeBase58 = (bytes: Uint8Array): string => {
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += (digits[i] ?? 0) << 8;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let out = "";
  for (const byte of bytes) {
    if (byte !== 0) break;
    out += "1";
  }
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i] ?? 0];
  return out;
};

/** A Solana address: base58 text of exactly 32 bytes. */
export const isBase58Address = (text: string): boolean => decodeBase58(text)?.length === 32;
