/**
 * The memory store's answer ids in a ring of typed arrays: against a plain Map of the same ids,
 * in issue order with the oldest dropped first, every id held is found with its owner and time,
 * every id dropped or never issued is not, while the ring grows and wraps.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { makeAnswerIds } from "../../adapters/store-memory/answers/answer-ids.ts";

type Op = { readonly kind: "add"; readonly id: string; readonly owner: string } | { readonly kind: "drop" };
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("add" as const),
      id: fc.uuid(),
      owner: fc.constantFrom("a", "b", "c"),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "drop" as const }) },
);

test("held ids are found with their owner and time, dropped ones are not", () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 3000 }), fc.uuid(), (ops, stranger) => {
      const capacity = 2500;
      const ids = makeAnswerIds(capacity);
      const model = new Map<string, { owner: string; at: number }>();
      const dropped: string[] = [];
      let at = 0;
      for (const step of ops) {
        if (step.kind === "add" && model.size < capacity && ids.isFree(step.id)) {
          ids.add(step.id, step.owner, ++at);
          model.set(step.id, { owner: step.owner, at });
        } else if (step.kind === "drop" && model.size > 0) {
          const [oldest] = model.keys();
          expect(ids.oldest()?.issuedAt).toBe(model.get(oldest as string)?.at);
          ids.dropOldest();
          model.delete(oldest as string);
          dropped.push(oldest as string);
        }
      }
      expect(ids.size()).toBe(model.size);
      for (const [id, { owner, at }] of model) {
        const slot = ids.find(id);
        expect(slot).toBeDefined();
        expect(ids.ownerOf(slot as number)).toBe(owner);
        expect(ids.issuedAtOf(slot as number)).toBe(at);
      }
      for (const id of dropped) if (!model.has(id)) expect(ids.find(id)).toBeUndefined();
      if (!model.has(stranger)) expect(ids.find(stranger)).toBeUndefined();
      expect(ids.find("not-a-uuid")).toBeUndefined();
    }),
    { numRuns: 100 },
  );
});
