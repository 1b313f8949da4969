import { expect, test } from "bun:test";
import { requestIds } from "../../src/http/edge/request-id.ts";

test("request ids are unique, share a per-process prefix, and use only JSON-safe characters", () => {
  const next = requestIds();
  const ids = Array.from({ length: 10_000 }, next);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id).toMatch(/^[0-9a-z]{8}-[0-9a-z]+$/);
  expect(new Set(ids.map((id) => id.split("-")[0])).size).toBe(1);
  // Another generator (another process) starts from another random prefix.
  const others = new Set(Array.from({ length: 20 }, () => requestIds()().split("-")[0]));
  expect(others.size).toBeGreaterThan(1);
});
