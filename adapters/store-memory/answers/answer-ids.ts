/**
 * The answer ids the memory store handed out, held in a ring of typed arrays instead of a map of
 * id strings to objects: each id's 128 bits as four numbers, when it was issued and to whom,
 * and a map from 52 of its bits to its slot for lookups. Measured at the soak's scale
 * (dev/bench/structures-heap.ts): 232 bytes of heap per answer id as a Map of strings and
 * objects. The ring is in issue order, so the oldest go first; it grows by doubling up to
 * its capacity, so an idle service does not hold the whole ring.
 */
import { ANSWER_ID_PATTERN } from "../../../core/answers/feedback.ts";

/** An answer id's 32 hex digits as four 32-bit words; undefined for anything but a UUID. */
const wordsOf = (id: string): readonly [number, number, number, number] | undefined => {
  if (!ANSWER_ID_PATTERN.test(id)) return undefined;
  const hex = id.replaceAll("-", "");
  const word = (i: number) => Number.parseInt(hex.slice(i * 8, i * 8 + 8), 16);
  return [word(0), word(1), word(2), word(3)];
};
/** The lookup key: the first 52 bits, a safe integer. */
const keyOf = (words: ArrayLike<number>) => (words[0] as number) * 2 ** 20 + ((words[1] as number) >>> 12);

const INITIAL_SLOTS = 1024;

export const makeAnswerIds = (capacity: number) => {
  let slots = Math.min(INITIAL_SLOTS, capacity);
  let words = new Uint32Array(slots * 4);
  let issuedAt = new Float64Array(slots);
  let owners: Array<string | undefined> = new Array(slots);
  const byKey = new Map<number, number>();
  let [head, count] = [0, 0];

  const slotAt = (i: number) => (head + i) % slots;
  const grow = () => {
    const bigger = Math.min(slots * 2, capacity);
    const [w, t, o] = [new Uint32Array(bigger * 4), new Float64Array(bigger), new Array(bigger)];
    for (let i = 0; i < count; i++) {
      const from = slotAt(i);
      w.set(words.subarray(from * 4, from * 4 + 4), i * 4);
      t[i] = issuedAt[from] as number;
      o[i] = owners[from];
      byKey.set(keyOf(w.subarray(i * 4, i * 4 + 4)), i);
    }
    [slots, words, issuedAt, owners, head] = [bigger, w, t, o, 0];
  };

  /** The slot holding `id`, or undefined. */
  const find = (id: string): number | undefined => {
    const parsed = wordsOf(id);
    if (parsed === undefined) return undefined;
    const slot = byKey.get(keyOf(parsed));
    if (slot === undefined) return undefined;
    for (let i = 0; i < 4; i++) if (words[slot * 4 + i] !== parsed[i]) return undefined;
    return slot;
  };

  return {
    /** Whether `id` can be added: a UUID whose lookup key no held id uses. */
    isFree: (id: string): boolean => {
      const parsed = wordsOf(id);
      return parsed !== undefined && !byKey.has(keyOf(parsed));
    },
    /** Adds an id (checked with isFree) at the end of the ring; the ring must not be full. */
    add: (id: string, owner: string, at: number): void => {
      if (count === slots) grow();
      const parsed = wordsOf(id) as readonly number[];
      const slot = slotAt(count);
      words.set(parsed, slot * 4);
      issuedAt[slot] = at;
      owners[slot] = owner;
      byKey.set(keyOf(parsed), slot);
      count++;
    },
    /** The oldest id's slot and issue time, or undefined when empty. */
    oldest: (): { readonly slot: number; readonly issuedAt: number } | undefined =>
      count === 0 ? undefined : { slot: head, issuedAt: issuedAt[head] as number },
    /** Drops the oldest id; its lookup key (which the caller's votes are kept under). */
    dropOldest: (): number => {
      const key = keyOf(words.subarray(head * 4, head * 4 + 4));
      byKey.delete(key);
      owners[head] = undefined;
      head = (head + 1) % slots;
      count--;
      return key;
    },
    find,
    /** The lookup key of a held slot's id. */
    keyAt: (slot: number) => keyOf(words.subarray(slot * 4, slot * 4 + 4)),
    ownerOf: (slot: number) => owners[slot] as string,
    issuedAtOf: (slot: number) => issuedAt[slot] as number,
    size: () => count,
  };
};
