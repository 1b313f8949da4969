/**
 * The Host guard keeps its verdict per Host value (host-guard.ts, MAX_KEPT_HOSTS): a kept
 * verdict must answer exactly as a fresh one, whatever the path (the probes skip the Host check,
 * which is no verdict on the Host) and past the bound.
 */
import { describe, expect, test } from "bun:test";
import { hostGuard } from "../../src/http/edge/host-guard.ts";

const guard = () => {
  const made = hostGuard({
    bindHost: "127.0.0.1",
    publicOrigin: undefined,
    allowedHosts: [],
    allowedOrigins: [],
  });
  if (made === undefined) throw new Error("the guard is on for a loopback bind");
  return made;
};
const asking = (host: string) => new Request("http://127.0.0.1/api/status", { headers: { host } });

describe("the Host guard's kept verdicts", () => {
  test("a refused Host stays refused on every path but the probes, in any order", () => {
    const check = guard();
    const seen = ["/api/status", "/healthz", "/api/status", "/readyz", "/llms.txt"].map((path) =>
      check(asking("rebound.example:3000"), path),
    );
    expect(seen).toEqual(["host", "ok", "host", "ok", "host"]);
  });

  test("past the bound, served and refused names still answer as the first time", () => {
    const check = guard();
    const first = [check(asking("LocalHost:8080"), "/"), check(asking("rebound.example"), "/")];
    for (let i = 0; i < 1000; i++) check(asking(`scan-${i}.example`), "/");
    const after = [check(asking("LocalHost:8080"), "/"), check(asking("rebound.example"), "/")];
    expect({ first, after }).toEqual({ first: ["ok", "host"], after: ["ok", "host"] });
  });
});
