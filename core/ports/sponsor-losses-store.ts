/**
 * The sponsor's losses to failed settlements (core/payments/sponsor-losses.ts), shared by every
 * instance: each wallet's strikes and refusal, and the lamports lost in the current UTC hour.
 */
import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { SponsorStanding } from "../payments/sponsor-losses.ts";
import type { StoreUnavailable } from "./store-errors.ts";

export class SponsorLosses extends Context.Service<
  SponsorLosses,
  {
    /** The wallet's refusal and this hour's losses, read together. */
    readonly standing: (wallet: string, now: number) => Effect.Effect<SponsorStanding, StoreUnavailable>;
    /** One failure on chain: the wallet's next strike and the hour's losses raised by `lamports`, in one step. */
    readonly recordLoss: (
      wallet: string,
      lamports: number,
      now: number,
    ) => Effect.Effect<SponsorStanding, StoreUnavailable>;
  }
>()("core/SponsorLosses") {}
