/**
 * Whether a transaction the relay is asked to send pays this service: a `transferChecked` of the
 * configured mint, of more than nothing, into the service wallet's associated token account,
 * which is the transfer the widget builds (src/widget/pay/transfer.ts). Anything else is the
 * sender's own business and goes through their own RPC, not the operator's plan. Accounts from
 * address lookup tables cannot be read without another RPC call, so an instruction naming one
 * does not count as the payment.
 */

import {
  type Address,
  address,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { MIN_PAYMENT_UNITS } from "../../../core/payments/money.ts";

const TRANSFER_CHECKED = 12;
/** transferChecked's accounts: source, mint, destination, authority. */
const MINT_AT = 1;
const DESTINATION_AT = 2;

const amountOf = (data: ArrayLike<number>): bigint => {
  let amount = 0n;
  for (let i = 8; i >= 1; i--) amount = (amount << 8n) | BigInt(data[i] ?? 0);
  return amount;
};

/** A checker of base64 wire transactions for `wallet` and `mint` (its token account derived once). */
export const paysService = (wallet: string, mint: string) => {
  const mintAddress = address(mint);
  const destination: Promise<Address> = findAssociatedTokenPda({
    owner: address(wallet),
    mint: mintAddress,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  }).then(([ata]) => ata);
  return async (wireBase64: string): Promise<boolean> => {
    const ours = await destination;
    try {
      const { messageBytes } = getTransactionDecoder().decode(getBase64Encoder().encode(wireBase64));
      const message = getCompiledTransactionMessageDecoder().decode(messageBytes);
      // Legacy and v0 messages: the widget builds v0; a newer version is not the widget's.
      if (!("instructions" in message)) return false;
      const accounts = message.staticAccounts;
      return message.instructions.some((instruction) => {
        const data = instruction.data;
        const indices = instruction.accountIndices ?? [];
        return (
          accounts[instruction.programAddressIndex] === TOKEN_PROGRAM_ADDRESS &&
          data !== undefined &&
          data.length === 10 &&
          data[0] === TRANSFER_CHECKED &&
          accounts[indices[MINT_AT] ?? accounts.length] === mintAddress &&
          accounts[indices[DESTINATION_AT] ?? accounts.length] === ours &&
          // At least the smallest purchase: a dust transfer does not buy a relay for other traffic.
          amountOf(data) >= MIN_PAYMENT_UNITS
        );
      });
    } catch {
      // Not a transaction at all: certainly not one that pays us.
      return false;
    }
  };
};
