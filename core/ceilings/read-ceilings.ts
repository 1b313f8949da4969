/**
 * The ceilings' settings, as fields of the service's settings (core/config/config-service.ts) made from
 * the table (ceilings.ts): each ceiling with a `setting` takes that variable, a whole number
 * within its bounds; the others keep their default. The one reader of these variables.
 */
import * as Schema from "effect/Schema";
import { envInteger } from "../config/config-fields.ts";
import { CEILING_NAMES, CEILINGS, type CeilingLimits, type CeilingSpec } from "./ceilings.ts";

/** One optional field per ceiling setting, keyed by its variable. */
export const CEILING_FIELDS: Readonly<Record<string, Schema.optionalKey<ReturnType<typeof envInteger>>>> =
  Object.fromEntries(
    CEILING_NAMES.flatMap((name) => {
      const { setting, limit }: CeilingSpec = CEILINGS[name];
      return setting === undefined ? [] : [[setting, Schema.optionalKey(envInteger(limit.min, limit.max))]];
    }),
  );

/** The limits in force, from the decoded settings (a variable left out keeps its default). */
export const ceilingLimitsOf = (settings: Readonly<Record<string, unknown>>): CeilingLimits =>
  Object.fromEntries(
    CEILING_NAMES.map((name) => {
      const { setting, limit }: CeilingSpec = CEILINGS[name];
      const given = setting === undefined ? undefined : settings[setting];
      return [name, typeof given === "number" ? given : limit.default];
    }),
  ) as CeilingLimits;
