/** Asking /api/chat with payment headers, and using up a client's free question, for the paid-chat tests. */
import { expect } from "bun:test";
import type { TestApp } from "./test-app.ts";

/** POST /api/chat from `from` with `headers` (a payment header, or none). */
export const askChat = (
  t: TestApp,
  from: string,
  headers: Readonly<Record<string, string>> = {},
  extra: Record<string, unknown> = {},
) =>
  t.call(
    "/api/chat",
    {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify({ message: "How do I write a file?", ...extra }),
    },
    from,
  );

/** Uses up the free question of `from` (the app allows one) and returns the 402. */
export const exhaustFreeQuestion = async (t: TestApp, from: string) => {
  expect((await askChat(t, from)).status).toBe(200);
  const response = await askChat(t, from);
  expect(response.status).toBe(402);
  return response;
};
