/** The logger masks secret-named fields at any depth a log line nests them, and keeps everything else as given. */
import { expect, test } from "bun:test";
import { makeLogger } from "../../src/observability/log.ts";

const lineOf = (fields: Record<string, unknown>) => {
  const lines: string[] = [];
  makeLogger((line) => lines.push(line)).warn("x", fields);
  return JSON.parse(lines[0]!);
};

test("secret-named fields are masked at the top and nested, in objects and arrays", () => {
  const line = lineOf({
    apiKey: "k1",
    user: { name: "ann", password: "p1", deeper: { client_secret: "s1" } },
    attempts: [{ authorization: "Bearer t1" }, "plain"],
    amount: 10n,
  });
  expect(line).toMatchObject({
    apiKey: "[redacted]",
    user: { name: "ann", password: "[redacted]", deeper: { client_secret: "[redacted]" } },
    attempts: [{ authorization: "[redacted]" }, "plain"],
    amount: "10",
  });
  expect(JSON.stringify(line)).not.toMatch(/k1|p1|s1|t1/);
});

test("fields without secrets are written as they are, and the caller's object is not changed", () => {
  const fields = { user: { password: "p2" }, route: "/api/chat" };
  expect(lineOf(fields)).toMatchObject({ route: "/api/chat", user: { password: "[redacted]" } });
  expect(fields.user.password).toBe("p2");
  expect(lineOf({ a: { b: [1, 2] }, c: null })).toMatchObject({ a: { b: [1, 2] }, c: null });
});
