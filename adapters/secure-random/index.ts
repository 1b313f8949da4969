/** SecureRandom from the platform's CSPRNG (Web Crypto): `WebCryptoRandom.layer`. */
export * as WebCryptoRandom from "./web-crypto.ts";
