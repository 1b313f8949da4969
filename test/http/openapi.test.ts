/**
 * /openapi.json cannot drift: it is generated from the Schemas below, real responses of every
 * documented route decode with those same Schemas, and every route the router serves is in it.
 */
import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import {
  ChatPaymentRequired,
  ChatResponse,
  ErrorBody,
  Health,
  PaymentInfo,
  Readiness,
  StatusResponse,
} from "../../src/http/schemas/responses.ts";
import { testApps } from "../support/test-app.ts";

const build = testApps();

const decodes = async (schema: Schema.Top, res: Response) => {
  const body = await res.json();
  const decoded = Schema.decodeUnknownResult(schema as Schema.Decoder<unknown>)(body, {
    onExcessProperty: "error",
  });
  if (Result.isFailure(decoded)) throw new Error(`${res.url}: ${decoded.failure.message}`);
};

describe("/openapi.json", () => {
  test("real responses decode with the Schemas the document is generated from (no extra fields)", async () => {
    const t = build({ freeQueries: 1 });
    await decodes(StatusResponse, await t.call("/api/status"));
    await decodes(PaymentInfo, await t.call("/api/payment/info"));
    await decodes(ChatResponse, await t.chat("How do I write a file?"));
    await decodes(ChatPaymentRequired, await t.chat("again")); // 402: a payment request, rateLimit and payment
    await decodes(ErrorBody, await t.chat(""));
    await decodes(ErrorBody, await t.pay({ signature: "x", amount: 5, token: "USDC" }));
    await decodes(ErrorBody, await t.pay({}));
    await decodes(Health, await t.call("/healthz"));
    await decodes(Readiness, await t.call("/readyz"));
  });

  test("every route is documented, with typed sources, components and servers", async () => {
    // With ADMIN_TOKEN, so the admin routes are served (and must be documented) too.
    const t = build({ adminToken: "test-admin-token-0123456789" });
    const spec = await (await t.call("/openapi.json")).json();
    const served = new Set(t.app.routes.map((route) => route.path).filter((path) => !path.includes("*")));
    for (const path of served) if (path !== "/openapi.json") expect(Object.keys(spec.paths)).toContain(path);
    expect(spec.servers.length).toBeGreaterThan(0);
    const schemas = spec.components.schemas;
    for (const name of ["ChatRequest", "PaymentRequest", "ChatResponse", "Source", "RateLimit", "Error"])
      expect(Object.keys(schemas)).toContain(name);
    expect(schemas.ChatResponse.properties.sources.items).toEqual({ $ref: "#/components/schemas/Source" });
    expect(schemas.PaymentRequest.required).toEqual(["signature", "amount", "token"]);
    expect(JSON.stringify(spec)).not.toContain("#/$defs/");
    expect(spec.paths["/api/admin/insights"].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      "from",
      "to",
    ]);
    expect(Object.keys(spec.components.securitySchemes)).toEqual(["adminToken", "adminSession"]);
  });
});
