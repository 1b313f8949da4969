/**
 * Writes a tiny BERT-shaped model with random weights into a folder: config.json, a WordPiece
 * tokenizer (tokenizer.json, tokenizer_config.json) and onnx/model.onnx whose graph is
 * token embedding + token-type embedding, masked by attention_mask, as `last_hidden_state`.
 * It exercises the real loading and inference path (tokenizer, ONNX Runtime, pooling) where
 * no real weights can be downloaded: tests and offline smoke checks use it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ModelProto, ONNX_ATTRIBUTE_INT, ONNX_FLOAT, ONNX_INT64 } from "./onnx-proto.ts";
import { TINY_VOCABULARY, tokenizerConfig, tokenizerJson } from "./tiny-tokenizer.ts";

export { TINY_VOCABULARY } from "./tiny-tokenizer.ts";

/** Deterministic pseudo-random numbers in [-1, 1) (mulberry32). */
const randomFloats = (count: number, seed: number): Float32Array => {
  let state = seed >>> 0;
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) / 2 ** 31 - 1;
  }
  return out;
};

const bytes = (view: ArrayBufferView) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
const dynamic = (...names: ReadonlyArray<string>) => names.map((name) => ({ dimParam: name }));
const tensorInput = (name: string, elemType: number, dims: ReadonlyArray<object>) => ({
  name,
  type: { tensorType: { elemType, shape: { dim: dims } } },
});

/** The model's weights: a [vocabulary, hidden] token table and a [2, hidden] token-type table. */
export const tinyWeights = (vocabulary: number, hidden: number, seed = 1) => ({
  words: randomFloats(vocabulary * hidden, seed),
  types: randomFloats(2 * hidden, seed + 1),
});

/** The ONNX model bytes for a vocabulary of `vocabulary` tokens and `hidden` dimensions. */
export const tinyOnnxModel = (vocabulary: number, hidden: number, seed = 1): Uint8Array => {
  const { words, types } = tinyWeights(vocabulary, hidden, seed);
  const model = {
    irVersion: 8,
    producerName: "docs-chat tiny-model",
    opsetImport: [{ domain: "", version: 13 }],
    graph: {
      name: "tiny-bert",
      initializer: [
        { name: "word_embeddings", dataType: ONNX_FLOAT, dims: [vocabulary, hidden], rawData: bytes(words) },
        { name: "type_embeddings", dataType: ONNX_FLOAT, dims: [2, hidden], rawData: bytes(types) },
        { name: "last_axis", dataType: ONNX_INT64, dims: [1], rawData: bytes(new BigInt64Array([2n])) },
      ],
      node: [
        {
          opType: "Gather",
          input: ["word_embeddings", "input_ids"],
          output: ["words"],
          name: "gather_words",
        },
        {
          opType: "Gather",
          input: ["type_embeddings", "token_type_ids"],
          output: ["types"],
          name: "gather_types",
        },
        { opType: "Add", input: ["words", "types"], output: ["embedded"], name: "add" },
        {
          opType: "Cast",
          input: ["attention_mask"],
          output: ["mask"],
          name: "cast_mask",
          attribute: [{ name: "to", type: ONNX_ATTRIBUTE_INT, i: ONNX_FLOAT }],
        },
        { opType: "Unsqueeze", input: ["mask", "last_axis"], output: ["mask3"], name: "unsqueeze_mask" },
        { opType: "Mul", input: ["embedded", "mask3"], output: ["last_hidden_state"], name: "apply_mask" },
      ],
      input: [
        tensorInput("input_ids", ONNX_INT64, dynamic("batch", "sequence")),
        tensorInput("attention_mask", ONNX_INT64, dynamic("batch", "sequence")),
        tensorInput("token_type_ids", ONNX_INT64, dynamic("batch", "sequence")),
      ],
      output: [
        tensorInput("last_hidden_state", ONNX_FLOAT, [...dynamic("batch", "sequence"), { dimValue: hidden }]),
      ],
    },
  };
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
};

/** Writes the whole model folder; returns its path. */
export const writeTinyModel = (
  folder: string,
  options: { hidden?: number; seed?: number; maxLength?: number } = {},
) => {
  const hidden = options.hidden ?? 32;
  const maxLength = options.maxLength ?? 128;
  mkdirSync(join(folder, "onnx"), { recursive: true });
  const config = {
    model_type: "bert",
    architectures: ["BertModel"],
    hidden_size: hidden,
    vocab_size: TINY_VOCABULARY.length,
    max_position_embeddings: maxLength,
    num_attention_heads: 1,
    num_hidden_layers: 1,
    type_vocab_size: 2,
  };
  writeFileSync(join(folder, "config.json"), JSON.stringify(config, null, 2));
  writeFileSync(join(folder, "tokenizer_config.json"), JSON.stringify(tokenizerConfig(maxLength), null, 2));
  writeFileSync(join(folder, "tokenizer.json"), JSON.stringify(tokenizerJson(maxLength)));
  writeFileSync(
    join(folder, "onnx", "model.onnx"),
    tinyOnnxModel(TINY_VOCABULARY.length, hidden, options.seed),
  );
  return folder;
};
