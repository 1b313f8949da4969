// Run by Node (test/support/offer-receipt.ts): @x402/extensions verifies a receipt JWS, resolving its kid itself.
import { verifyReceiptSignatureJWS } from "@x402/extensions/offer-receipt";

const payload = await verifyReceiptSignatureJWS({ format: "jws", signature: process.argv[2] });
process.stdout.write(JSON.stringify(payload));
