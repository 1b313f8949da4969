/**
 * What every CLI here does first: parse flags (plus -h/--help), and fail with one line and the
 * usage text. Exit codes: 0 success, 1 the work failed, 2 bad usage or configuration.
 */
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import * as Result from "effect/Result";
import { type AppConfig, parseConfig } from "../../core/config/config.ts";

const HELP = { help: { type: "boolean", short: "h", default: false } } as const;

export const commandLine = <const O extends ParseArgsOptionsConfig>(
  name: string,
  usage: string,
  options: O,
) => {
  const fail = (message: string, code: 1 | 2): never => {
    console.error(code === 2 ? `${name}: ${message}\n\n${usage}` : `${name}: ${message}`);
    return process.exit(code);
  };
  const read = () => {
    try {
      return parseArgs<{ args: string[]; allowPositionals: true; options: O & typeof HELP }>({
        args: process.argv.slice(2),
        allowPositionals: true,
        options: { ...options, ...HELP },
      });
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error), 2);
    }
  };
  const { values, positionals } = read();
  // The option types resolve at each call site; here O is still generic.
  if ((values as { readonly help?: boolean }).help === true) {
    console.log(usage);
    process.exit(0);
  }
  /** The service's configuration from the environment, or exit 2 listing every problem. */
  const config = (): AppConfig => {
    const parsed = parseConfig(process.env);
    return Result.isSuccess(parsed) ? parsed.success : fail(parsed.failure.message, 2);
  };
  return { values, positionals, fail, config };
};
