/**
 * The ceilings' settings, read from the environment by one function over the table
 * (ceilings.ts): each ceiling with a `setting` takes that variable, a whole number within its
 * bounds; the others keep their default. Problems are named as every other variable's are.
 */
import { type Env, reader } from "../config-reader.ts";
import {
  CEILING_NAMES,
  CEILINGS,
  type CeilingLimits,
  type CeilingName,
  type CeilingSpec,
} from "./ceilings.ts";

export interface ReadCeilings {
  readonly limits: CeilingLimits;
  readonly problems: ReadonlyArray<string>;
}

/** The limits in force under `env`, and what is wrong with the settings it gives. */
export const readCeilings = (env: Env): ReadCeilings => {
  const read = reader(env);
  const limits = {} as Record<CeilingName, number>;
  for (const name of CEILING_NAMES) {
    const spec: CeilingSpec = CEILINGS[name];
    const { default: fallback, min, max } = spec.limit;
    limits[name] = spec.setting === undefined ? fallback : read.integer(spec.setting, fallback, min, max);
  }
  return { limits, problems: read.problems };
};
