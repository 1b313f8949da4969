/**
 * A local embedder that needs no model download: feature-hashed lexical vectors. Features are
 * stemmed words, word bigrams and character trigrams of identifiers, weighted by sublinear
 * term frequency, hashed with a sign bit into a fixed number of dimensions and L2-normalised,
 * so cosine similarity behaves like a tf-weighted lexical match. It is the embedded default
 * and the embedder used by tests.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { Embedder } from "../../core/ports/retrieval.ts";
import { tokens } from "../shared/text-analysis/analyze.ts";

export const DEFAULT_DIMENSIONS = 1024;
const BIGRAM_WEIGHT = 1.5;
const TRIGRAM_WEIGHT = 0.2;

/** 32-bit FNV-1a: fast, stable across runs and platforms. */
const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

const countFeatures = (text: string): Map<string, number> => {
  const weights = new Map<string, number>();
  const add = (feature: string, weight: number) => weights.set(feature, (weights.get(feature) ?? 0) + weight);
  let previous: string | undefined;
  for (const token of tokens(text)) {
    for (const term of token.terms) add(`w:${term}`, 1);
    const head = token.terms[token.terms.length - 1] ?? token.word;
    if (previous !== undefined) add(`b:${previous} ${head}`, BIGRAM_WEIGHT);
    previous = head;
    if (token.identifier) {
      const padded = `#${token.word.replaceAll(".", "#")}#`;
      for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
    }
  }
  return weights;
};

/** Embeds one text into `dimensions` numbers (all zero for a text without any terms). */
export const hashEmbed = (text: string, dimensions: number = DEFAULT_DIMENSIONS): Float32Array => {
  const vector = new Float32Array(dimensions);
  for (const [feature, count] of countFeatures(text)) {
    // Sublinear tf: a word said ten times is not ten times as telling.
    const weight = count >= 1 ? 1 + Math.log(count) : count;
    const hash = fnv1a(feature);
    vector[hash % dimensions]! += hash & 0x80000000 ? -weight : weight;
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < dimensions; i++) vector[i]! *= scale;
  }
  return vector;
};

/** The embedder service over `hashEmbed`; its name changes whenever vectors would. */
export const make = (dimensions: number = DEFAULT_DIMENSIONS): Embedder["Service"] => ({
  name: `hash-v4-${dimensions}`,
  dimensions,
  embed: (texts) => Effect.sync(() => texts.map((text) => hashEmbed(text, dimensions))),
});

/** The hashed embedder with the default number of dimensions. */
export const layer = Layer.succeed(Embedder, make());
