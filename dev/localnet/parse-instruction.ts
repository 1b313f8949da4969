/**
 * `jsonParsed` rendering of one instruction, as a validator does for the programs a payment
 * touches: SPL Token transfers (and the setup steps of an associated token account), system
 * transfers and account creation, memos, associated-token-account creation. Anything else is
 * `{programId, accounts, data}` with base58 data.
 */
import { getAddressDecoder, getBase58Decoder } from "@solana/kit";
// The verifier's memo programs (v1, v3, v4), so the local chain parses exactly the memos the service reads.
import { MEMO_PROGRAM_IDS } from "../../core/payments/parsed-transaction.ts";
import { TOKEN_PROGRAMS, uiTokenAmount } from "./token-accounts.ts";

const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const ASSOCIATED_TOKEN_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";

type Info = Record<string, unknown>;
type Parsed = { readonly program: string; readonly parsed: unknown } | undefined;

const u64 = (data: Uint8Array, offset: number): bigint | undefined =>
  data.length >= offset + 8
    ? new DataView(data.buffer, data.byteOffset).getBigUint64(offset, true)
    : undefined;

const typed = (program: string, type: string, info: Info): Parsed => ({ program, parsed: { type, info } });

const parseToken = (data: Uint8Array, keys: ReadonlyArray<string>): Parsed => {
  const [a, b, c, d] = keys;
  const amount = u64(data, 1);
  switch (data[0]) {
    case 3:
      return amount === undefined
        ? undefined
        : typed("spl-token", "transfer", {
            source: a,
            destination: b,
            authority: c,
            amount: amount.toString(),
          });
    case 7:
      return amount === undefined
        ? undefined
        : typed("spl-token", "mintTo", { mint: a, account: b, mintAuthority: c, amount: amount.toString() });
    case 12:
    case 14: {
      const decimals = data[9];
      if (amount === undefined || decimals === undefined) return undefined;
      const tokenAmount = uiTokenAmount(amount, decimals);
      return data[0] === 12
        ? typed("spl-token", "transferChecked", {
            source: a,
            mint: b,
            destination: c,
            authority: d,
            tokenAmount,
          })
        : typed("spl-token", "mintToChecked", { mint: a, account: b, mintAuthority: c, tokenAmount });
    }
    case 18:
      return data.length < 33
        ? undefined
        : typed("spl-token", "initializeAccount3", {
            account: a,
            mint: b,
            owner: getAddressDecoder().decode(data.subarray(1, 33)),
          });
    case 21:
      return typed("spl-token", "getAccountDataSize", { mint: a, extensionTypes: [] });
    case 22:
      return typed("spl-token", "initializeImmutableOwner", { account: a });
    default:
      return undefined;
  }
};

const parseSystem = (data: Uint8Array, keys: ReadonlyArray<string>): Parsed => {
  if (data.length < 4) return undefined;
  const tag = new DataView(data.buffer, data.byteOffset).getUint32(0, true);
  const lamports = u64(data, 4);
  if (tag === 2 && lamports !== undefined) {
    return typed("system", "transfer", { source: keys[0], destination: keys[1], lamports });
  }
  const space = u64(data, 12);
  if (tag === 0 && lamports !== undefined && space !== undefined && data.length >= 52) {
    const owner = getAddressDecoder().decode(data.subarray(20, 52));
    return typed("system", "createAccount", { source: keys[0], newAccount: keys[1], lamports, space, owner });
  }
  return undefined;
};

const parseAssociated = (data: Uint8Array, keys: ReadonlyArray<string>): Parsed => {
  const type = data.length === 0 || data[0] === 0 ? "create" : data[0] === 1 ? "createIdempotent" : undefined;
  if (type === undefined) return undefined;
  const [source, account, wallet, mint, systemProgram, tokenProgram] = keys;
  return typed("spl-associated-token-account", type, {
    source,
    account,
    wallet,
    mint,
    systemProgram,
    tokenProgram,
  });
};

const parse = (programId: string, data: Uint8Array, keys: ReadonlyArray<string>): Parsed => {
  if (TOKEN_PROGRAMS.includes(programId as (typeof TOKEN_PROGRAMS)[number])) return parseToken(data, keys);
  if (programId === SYSTEM_PROGRAM) return parseSystem(data, keys);
  if (programId === ASSOCIATED_TOKEN_PROGRAM) return parseAssociated(data, keys);
  if (MEMO_PROGRAM_IDS.includes(programId)) {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(data);
    return { program: "spl-memo", parsed: text };
  }
  return undefined;
};

/** One instruction in `jsonParsed` form. */
export const parsedInstruction = (
  programId: string,
  accounts: ReadonlyArray<string>,
  data: Uint8Array,
  stackHeight: number | null,
): Record<string, unknown> => {
  let parsed: Parsed;
  try {
    parsed = parse(programId, data, accounts);
  } catch {
    // Undecodable data (a memo that is not UTF-8, say) is shown raw, as a validator does.
    parsed = undefined;
  }
  return parsed === undefined
    ? { programId, accounts: [...accounts], data: getBase58Decoder().decode(data), stackHeight }
    : { program: parsed.program, programId, parsed: parsed.parsed, stackHeight };
};
