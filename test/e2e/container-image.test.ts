/**
 * What the container image would run, run here (Docker cannot run on this machine): the
 * Dockerfile's own install command (`npm ci --omit=dev --omit=optional`) in a fresh folder, its
 * files copied in, then its CMD with its ENV. The result holds production dependencies only
 * (no LiteSVM, no dev tools), answers on all four endpoints against a configured chain (a real
 * USDC payment included), passes its HEALTHCHECK, and without a chain configured exits with a
 * clear message instead of a stack trace. The Dockerfile rules hadolint would check that apply
 * here are checked too (hadolint itself is in neither Debian nor npm: its npm wrapper
 * downloads the binary from GitHub, which this machine cannot reach).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  contextCopies,
  envOf,
  execForm,
  imageOf,
  readDockerfile,
  type Stage,
  shellOf,
  textsOf,
} from "../support/dockerfile.ts";
import { chainEnv, startTestChain, type TestChain } from "../support/localnet.ts";
import { REPO_ROOT, runToExit, type ServiceProcess, startService } from "../support/service-process.ts";

const dockerfile = readDockerfile(REPO_ROOT);
const { stages } = dockerfile;
const deps = stages[0] as Stage;
const final = stages.at(-1) as Stage;
/** The image's CMD with its `bun` being the Bun that runs the tests (the image pins the same version). */
const command = execForm(textsOf(final, "CMD")[0] ?? "[]").map((word, i) =>
  i === 0 ? process.execPath : word,
);

/** The image's ENV, less PORT: the tests map a free port, as `docker run -p` would. */
const { PORT: _imagePort, ...imageEnv } = envOf(final);

let folder = "";
let installOutput = "";
let chain: TestChain | undefined;
let service: ServiceProcess | undefined;

describe("the image, built and run without Docker", () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "image-"));
    for (const source of contextCopies(deps)) cpSync(join(REPO_ROOT, source), join(folder, source));
    for (const run of textsOf(deps, "RUN")) {
      const install = Bun.spawn(["sh", "-c", shellOf(run)], {
        cwd: folder,
        env: { ...process.env, OPTIONAL_DEPS: "false" },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [code, out, err] = await Promise.all([
        install.exited,
        new Response(install.stdout).text(),
        new Response(install.stderr).text(),
      ]);
      installOutput += out + err;
      if (code !== 0) throw new Error(`the image's install step failed (${code}):\n${installOutput}`);
    }
    for (const source of contextCopies(final))
      cpSync(join(REPO_ROOT, source), join(folder, source), { recursive: true });
    // The final stage's build steps, with the tests' Bun; not the chown to the image's user (none here).
    for (const run of textsOf(final, "RUN").filter((text) => !text.includes("chown"))) {
      const [program = "", ...args] = shellOf(run).split(" ");
      const step = Bun.spawn([program === "bun" ? process.execPath : program, ...args], {
        cwd: folder,
        stdout: "pipe",
        stderr: "pipe",
      });
      if ((await step.exited) !== 0)
        throw new Error(`the image's step "${run}" failed: ${await new Response(step.stderr).text()}`);
    }
    chain = await startTestChain();
    service = await startService({ command, cwd: folder, env: { ...imageEnv, ...chainEnv(chain) } });
  }, 240_000);
  afterAll(async () => {
    await service?.dispose();
    await chain?.stop();
    if (folder !== "") rmSync(folder, { recursive: true, force: true });
  });

  test("the install is production-only and quiet: no LiteSVM, no dev tools, no npm warning of ours", () => {
    const present = (name: string) => existsSync(join(folder, "node_modules", name));
    for (const name of ["hono", "effect", "ioredis", "@solana/kit", "chromadb", "groq-sdk"])
      expect(present(name)).toBe(true);
    for (const name of ["litesvm", "litesvm-linux-x64-gnu", "@huggingface/transformers", "onnxruntime-node"])
      expect(present(name)).toBe(false);
    for (const name of [
      "typescript",
      "@biomejs/biome",
      "bun",
      "deno",
      "fast-check",
      "chromadb-js-bindings-linux-x64-gnu",
    ])
      expect(present(name)).toBe(false);
    const warnings = installOutput
      .split("\n")
      .filter((line) => /npm warn/i.test(line) && !line.includes('"nodedir"'));
    expect(warnings).toEqual([]);
  });

  test("it listens on all interfaces, as a container must", () => {
    expect(service!.logs().find((line) => line.msg === "listening")?.url).toBe(
      `http://0.0.0.0:${service!.port}/`,
    );
  });

  test("GET /api/status and GET /api/payment/info", async () => {
    const status = await service!.call("/api/status");
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ success: true, remaining: 3 });
    const info = await service!.call("/api/payment/info");
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ network: "localnet", recipient: chain!.serviceWallet });
  });

  test("POST /api/chat answers from the docs the image carries", async () => {
    const res = await service!.call("/api/chat", { message: "How do I pay for more questions?" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.sources.length).toBeGreaterThan(0);
  });

  test("POST /api/payment verifies a real transfer", async () => {
    const signature = await chain!.sendUsdc({ units: 10_000n });
    const paid = await service!.call("/api/payment", { signature, amount: 0.01, token: "USDC" });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ success: true, queriesGranted: 10 });
  }, 30_000);

  test("it serves the widget bundles built into the image", async () => {
    const widget = await service!.call("/widget.js");
    expect(widget.status).toBe(200);
    expect(widget.headers.get("content-type")).toContain("javascript");
  });

  test("its HEALTHCHECK command passes against the running service, and fails without one", async () => {
    const probe = execForm(textsOf(final, "HEALTHCHECK")[0] ?? "").map((word, i) =>
      i === 0 ? process.execPath : word,
    );
    const run = async (port: number) =>
      Bun.spawn([...probe], {
        env: { ...process.env, PORT: String(port) },
        stdout: "ignore",
        stderr: "ignore",
      }).exited;
    expect(await run(service!.port)).toBe(0);
    expect(await run(1)).toBe(1);
  });

  test("with no chain configured it stops with a clear message: the demo chain is not in the image", async () => {
    const { code, logs, output } = await runToExit({ command, cwd: folder, env: imageEnv });
    expect(code).toBe(1);
    expect(logs.find((line) => line.msg === "startup failed")).toMatchObject({
      problem: expect.stringContaining("no CHAIN_NETWORK is configured"),
      fix: expect.stringContaining("CHAIN_NETWORK, USDC_MINT_ADDRESS and PAYMENT_WALLET_ADDRESS"),
    });
    expect(output).not.toContain("    at "); // no stack trace
  }, 30_000);
});

describe("Dockerfile rules (the hadolint checks that apply)", () => {
  test("every base image is pinned to a version, none is latest (DL3006, DL3007)", () => {
    expect(stages.map((stage) => imageOf(dockerfile, stage))).toEqual([
      expect.stringMatching(/^node:\d+-bookworm-slim$/),
      expect.stringMatching(/^oven\/bun:\d+\.\d+\.\d+-slim$/),
    ]);
  });

  test("the last USER is not root (DL3002); CMD and HEALTHCHECK are exec form (DL3025)", () => {
    expect(textsOf(final, "USER").at(-1)).toBe("bun");
    expect(command.slice(1)).toEqual(["run", "src/main.ts"]);
    expect(textsOf(final, "HEALTHCHECK")[0]).toContain("/healthz");
  });

  test("the container listens on all interfaces in production mode", () => {
    expect(envOf(final)).toMatchObject({ HOST: "0.0.0.0", NODE_ENV: "production" });
  });
});
