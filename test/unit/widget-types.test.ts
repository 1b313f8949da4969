/**
 * The widget keeps its own copy of the response types it reads (src/widget/chat-api.ts), so browser
 * code never imports server code; this file holds the copy to the server's response Schemas. It
 * is checked by `tsc --noEmit` in `npm test`: a field the server drops or retypes makes a
 * server response no longer assignable to the widget's type, and the typecheck fails.
 */
import { expect, test } from "bun:test";
import type * as Schema from "effect/Schema";
import type {
  PaymentInfo as PaymentInfoSchema,
  Source as SourceSchema,
  RateLimit as StatusSchema,
} from "../../src/http/schemas/responses.ts";
import type { PaymentInfo, RateLimit, Source } from "../../src/widget/chat-api.ts";

/** Compiles only when a value of type `Server` can be read as `Widget`. */
const readsAs = <Server, Widget>(check: (server: Server) => Widget) => check;

test("what the server sends, the widget's types read (checked by tsc)", () => {
  const checks = [
    readsAs<Schema.Schema.Type<typeof StatusSchema>, RateLimit>((server) => server),
    readsAs<Schema.Schema.Type<typeof SourceSchema>, Source>((server) => server),
    readsAs<Schema.Schema.Type<typeof PaymentInfoSchema>, PaymentInfo>((server) => server),
  ];
  expect(checks.length).toBe(3);
});
