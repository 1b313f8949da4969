/**
 * The MCP conformance suite's server scenarios `dns-rebinding-protection`, `server-initialize`,
 * `ping` and `tools-list`, against `npm start` on loopback with nothing configured: first the
 * suite itself (@modelcontextprotocol/conformance, a devDependency; it needs Node 22's APIs, so
 * the Bun running the tests runs it), then the same requests reproduced here so a failure names
 * what broke: an `initialize` POST with Host and Origin `evil.example.com` must get a 4xx
 * (HOST_NOT_ALLOWED) and with the server's own host a 2xx (node:http sets Host as the suite's
 * request helper does); the other three connect the official SDK client over Streamable HTTP
 * and check the handshake, an empty ping result, and every tool's name, description and input
 * schema.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { REPO_ROOT, type ServiceProcess, startService } from "../support/service-process.ts";

let service: ServiceProcess | undefined;
beforeAll(async () => {
  service = await startService();
}, 60_000);
afterAll(async () => {
  await service?.dispose();
});

/** The suite's `initialize` POST with `host` as Host and `http://<host>` as Origin: status and JSON body. */
const initializeAs = (host: string) =>
  new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "conformance-dns-rebinding-test", version: "1.0.0" },
      },
    });
    const sent = request(
      {
        host: "127.0.0.1",
        port: service!.port,
        path: "/mcp",
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Host: host,
          Origin: `http://${host}`,
          Accept: "application/json, text/event-stream",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () => {
          let parsed: unknown = null;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text; // an SSE answer: the suite reads it as null, the status is what counts
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });

/** The suite's client: the SDK client, with sampling and elicitation declared, on the server URL. */
const connect = async () => {
  const client = new Client(
    { name: "conformance-test-client", version: "1.0.0" },
    { capabilities: { sampling: {}, elicitation: {} } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service!.url}/mcp`)));
  return client;
};

const SUITE = `${REPO_ROOT}node_modules/@modelcontextprotocol/conformance/dist/index.js`;

describe("the MCP conformance suite itself", () => {
  for (const scenario of ["dns-rebinding-protection", "server-initialize", "ping", "tools-list"])
    test(`${scenario} passes`, async () => {
      const run = Bun.spawn(
        [
          process.execPath,
          SUITE,
          "server",
          "--url",
          `http://localhost:${service!.port}/mcp`,
          "--scenario",
          scenario,
        ],
        { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" } },
      );
      const [output, errors, code] = await Promise.all([
        new Response(run.stdout).text(),
        new Response(run.stderr).text(),
        run.exited,
      ]);
      expect({ code, errors: code === 0 ? "" : errors, output: code === 0 ? "" : output }).toEqual({
        code: 0,
        errors: "",
        output: "",
      });
      expect(output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    });
});

describe("MCP conformance, server scenarios reproduced", () => {
  test("dns-rebinding-protection: a foreign Host/Origin gets a 4xx, the server's own host a 2xx", async () => {
    const rebound = await initializeAs("evil.example.com");
    expect(rebound.status).toBeGreaterThanOrEqual(400);
    expect(rebound.status).toBeLessThan(500);
    expect(rebound.body).toMatchObject({ code: "HOST_NOT_ALLOWED" });
    const own = await initializeAs(`127.0.0.1:${service!.port}`);
    expect(own.status).toBeGreaterThanOrEqual(200);
    expect(own.status).toBeLessThan(300);
    const named = await initializeAs(`localhost:${service!.port}`);
    expect(named.status).toBe(200);
  });

  test("server-initialize: the handshake completes", async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toMatch(/./);
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    await client.close();
  });

  test("ping: an empty result", async () => {
    const client = await connect();
    expect(await client.ping()).toEqual({});
    await client.close();
  });

  test("tools-list: every tool has a name, a description and an input schema", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["ask_docs", "read_page", "search_docs"]);
    for (const tool of tools) {
      expect(tool.description ?? "").toMatch(/./);
      expect(tool.inputSchema.type).toBe("object");
    }
    await client.close();
  });
});
