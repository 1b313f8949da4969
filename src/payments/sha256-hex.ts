/** SHA-256 of a text's UTF-8 bytes as 64 hex characters (Web Crypto: Bun, Deno and browsers alike). */
export const sha256Hex = async (text: string): Promise<string> =>
  Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
