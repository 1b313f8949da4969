/** The settings parsed from an environment, for the tests of core/config: the config, or its ConfigError. */
import * as Result from "effect/Result";
import { type AppConfig, type Env, parseConfig } from "../../core/config/config.ts";

/** The config `env` parses to; throws the ConfigError's message when it does not. */
export const parsedConfig = (env: Env): AppConfig => {
  const result = parseConfig(env);
  if (Result.isFailure(result)) throw new Error(result.failure.message);
  return result.success;
};

/** The ConfigError `env` parses to; throws when it parses. */
export const configFailure = (env: Env) => {
  const result = parseConfig(env);
  if (Result.isSuccess(result)) throw new Error("expected a ConfigError");
  return result.failure;
};

/** The problems the ConfigError of `env` lists. */
export const configProblems = (env: Env): ReadonlyArray<string> => configFailure(env).problems;
