/**
 * The params the RPC relay forwards, per method, as the widget sends them through @solana/kit
 * (src/widget/pay/): a blockhash with a commitment; the signatures of one Solana Pay reference,
 * at most 10; one signed transaction in base64 with its send options. Unknown keys, larger limits
 * and other shapes are refused, so a stranger cannot have the operator's RPC plan pay for an
 * address's history or a search of old signatures.
 */
import { isAddress } from "@solana/kit";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import * as SchemaIssue from "effect/SchemaIssue";

/** The widget polls a reference with 5; a little room, never a history. */
export const MAX_SIGNATURES = 10;
/** A Solana transaction is at most 1232 bytes: 1644 characters of base64. */
const MAX_WIRE_BASE64 = 1644;

const Commitment = Schema.Literals(["processed", "confirmed", "finalized"]);
const Slot = Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)));
const AccountAddress = Schema.String.pipe(
  Schema.check(Schema.makeFilter((text: string) => isAddress(text) || "a base58 account address")),
);
const WireBase64 = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter(
      (text: string) =>
        (text.length <= MAX_WIRE_BASE64 && /^[A-Za-z0-9+/]+={0,2}$/.test(text)) ||
        "one transaction in base64 (at most 1232 bytes)",
    ),
  ),
);

const BlockhashConfig = Schema.Struct({
  commitment: Schema.optionalKey(Commitment),
  minContextSlot: Schema.optionalKey(Slot),
});
const SignaturesConfig = Schema.Struct({
  limit: Schema.optionalKey(
    Schema.Number.pipe(
      Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: MAX_SIGNATURES })),
    ),
  ),
  commitment: Schema.optionalKey(Schema.Literals(["confirmed", "finalized"])),
  minContextSlot: Schema.optionalKey(Slot),
});
const SendConfig = Schema.Struct({
  encoding: Schema.Literal("base64"),
  // What the widget sends: never skipPreflight (a junk transaction would reach the RPC unchecked).
  preflightCommitment: Schema.optionalKey(Commitment),
  minContextSlot: Schema.optionalKey(Slot),
});

/** Each relayed method with the params it takes; `getSignaturesForAddress` without a limit gets the widget's. */
export const RELAYED_PARAMS = {
  getLatestBlockhash: Schema.Tuple([Schema.optionalKey(BlockhashConfig)]),
  getSignaturesForAddress: Schema.Tuple([AccountAddress, Schema.optionalKey(SignaturesConfig)]),
  sendTransaction: Schema.Tuple([WireBase64, SendConfig]),
} as const;

export type RelayedMethod = keyof typeof RELAYED_PARAMS;

export const isRelayed = (method: unknown): method is RelayedMethod =>
  typeof method === "string" && Object.hasOwn(RELAYED_PARAMS, method);

const formatter = SchemaIssue.makeFormatterStandardSchemaV1();

/** The params as the upstream gets them, or the problems (no unknown key passes). */
export const decodeParams = (
  method: RelayedMethod,
  params: unknown,
): Result.Result<ReadonlyArray<unknown>, string> => {
  const decoded = Schema.decodeUnknownResult(RELAYED_PARAMS[method])(params ?? [], {
    errors: "all",
    onExcessProperty: "error",
  });
  if (Result.isFailure(decoded))
    return Result.fail(
      formatter(decoded.failure.issue)
        .issues.map((issue) => `${issue.path?.join(".") ?? ""}: ${issue.message}`)
        .join("; ")
        .slice(0, 300),
    );
  const value = decoded.success as ReadonlyArray<unknown>;
  if (method !== "getSignaturesForAddress") return Result.succeed(value);
  // The RPC's default limit is 1000: the relay never leaves it to the default.
  const [address, config] = value as readonly [string, Record<string, unknown> | undefined];
  return Result.succeed([address, { limit: MAX_SIGNATURES, ...config }]);
};
