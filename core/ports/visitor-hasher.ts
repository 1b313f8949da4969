import * as Context from "effect/Context";

/**
 * The only form in which the insights keep who asked or paid: a keyed hash of the client
 * identity whose key changes every UTC day, so a visitor is recognisable within one day and
 * never across days, and the address cannot be read back without the secret.
 */
export class VisitorHasher extends Context.Service<
  VisitorHasher,
  { readonly hash: (identity: string, now: number) => string }
>()("core/VisitorHasher") {}
