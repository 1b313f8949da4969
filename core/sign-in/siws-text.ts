/**
 * The exact Sign-In With Solana text of the sign-in-with-x extension. Apart from its Schema so
 * the widget can build the same text without bundling Effect.
 */

/** What the server declares (`extensions["sign-in-with-x"].info`) plus the chain the wallet signs for. */
export interface SignInFields {
  readonly domain: string;
  readonly uri: string;
  readonly statement?: string | undefined;
  readonly version: string;
  readonly chainId: string;
  readonly nonce: string;
  readonly issuedAt: string;
  readonly expirationTime?: string | undefined;
  readonly notBefore?: string | undefined;
  readonly requestId?: string | undefined;
  readonly resources?: ReadonlyArray<string> | undefined;
}

/** The chain reference of a CAIP-2 id (`solana:<reference>`), as the SIWS text names it. */
const chainReference = (chainId: string): string => chainId.slice(chainId.indexOf(":") + 1);

/** The exact SIWS text `address` signs for these fields (the format of the sign-in-with-x spec). */
export const signInMessage = (fields: SignInFields, address: string): string => {
  const lines = [`${fields.domain} wants you to sign in with your Solana account:`, address, ""];
  if (fields.statement) lines.push(fields.statement, "");
  lines.push(
    `URI: ${fields.uri}`,
    `Version: ${fields.version}`,
    `Chain ID: ${chainReference(fields.chainId)}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt}`,
  );
  if (fields.expirationTime) lines.push(`Expiration Time: ${fields.expirationTime}`);
  if (fields.notBefore) lines.push(`Not Before: ${fields.notBefore}`);
  if (fields.requestId) lines.push(`Request ID: ${fields.requestId}`);
  if (fields.resources && fields.resources.length > 0) {
    lines.push("Resources:");
    for (const resource of fields.resources) lines.push(`- ${resource}`);
  }
  return lines.join("\n");
};
