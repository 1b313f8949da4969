/**
 * `npm run localnet -- [--port N] [--confirmation-delay MS] [--state-file PATH] [--fault method=kind[:times]]...`
 * Runs the local chain until SIGINT/SIGTERM.
 */
import { parseArgs } from "node:util";
import { type Fault, parseFaultSpec } from "./faults.ts";
import { DEFAULT_STATE_FILE, startLocalnet } from "./index.ts";

const USAGE = `usage: npm run localnet -- [options]
  --port N                  listen on 127.0.0.1:N (default 8899; 0 = any free port)
  --confirmation-delay MS   transactions reach "confirmed" MS ms after they execute (default 0)
  --state-file PATH         where to write the URL, mint and demo keys (default ${DEFAULT_STATE_FILE})
  --fault method=kind[:N]   inject a fault (kinds: timeout, http-429, http-500, invalid-json,
                            wrong-shape; method "*" = all; N = only the next N calls); repeatable
  --help`;

const fail = (message: string): never => {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
};

const nonNegative = (text: string | undefined, name: string, fallback: number): number => {
  if (text === undefined) return fallback;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= 0 ? value : fail(`--${name} must be a non-negative integer`);
};

const main = async () => {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      "confirmation-delay": { type: "string" },
      "state-file": { type: "string" },
      fault: { type: "string", multiple: true },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) return void console.log(USAGE);
  const faults: Record<string, Fault> = {};
  for (const spec of values.fault ?? []) {
    const [method, fault] = parseFaultSpec(spec);
    faults[method] = fault;
  }
  const stateFile = values["state-file"] ?? DEFAULT_STATE_FILE;
  const localnet = await startLocalnet({
    port: nonNegative(values.port, "port", 8899),
    confirmationDelayMs: nonNegative(values["confirmation-delay"], "confirmation-delay", 0),
    stateFile,
    faults,
  });
  console.log(`local chain (LiteSVM) listening on ${localnet.url}`);
  console.log(`state file: ${stateFile}  (mint ${localnet.mint}, service wallet ${localnet.serviceWallet})`);
  console.log(
    `demo payer ${localnet.payer.address} holds 100 SOL and 1000 test USDC; pay with: npm run pay -- --amount 0.05`,
  );
  const shutdown = () => {
    localnet.stop().then(() => process.exit(0));
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
};

main().catch((cause: unknown) => fail(cause instanceof Error ? cause.message : String(cause)));
