/**
 * A sentence-embedding model run locally through @huggingface/transformers (ONNX Runtime):
 * mean pooling over the last hidden state, L2-normalised. The model is named by
 * EMBEDDING_MODEL: a Hugging Face id such as "Xenova/all-MiniLM-L6-v2", looked up first
 * under `localModelPath/<id>/` and otherwise downloaded on first use (when allowed), or a
 * folder path holding config.json, tokenizer files and onnx/model.onnx.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import * as Arr from "effect/Array";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { Embedder, EmbeddingFailed } from "../../core/ports/retrieval.ts";

export interface TransformersOptions {
  /** Hugging Face model id, or a path to a model folder. */
  readonly model: string;
  /** Where local models live as `<path>/<model id>/` (default ".data/models"). */
  readonly localModelPath?: string;
  /** Allow downloading from the Hugging Face hub (default true; ignored for a folder path). */
  readonly allowRemote?: boolean;
  /** Download cache (default: the library's). */
  readonly cacheDir?: string;
  /** Weights variant: "fp32" (onnx/model.onnx, the default) or "q8" (onnx/model_quantized.onnx). */
  readonly dtype?: "fp32" | "q8";
  /** Texts per forward pass (default 16). */
  readonly batchSize?: number;
}

export const DEFAULT_LOCAL_MODEL_PATH = ".data/models";

interface Located {
  readonly id: string;
  readonly localModelPath: string;
  readonly allowRemote: boolean;
}

/** A folder path is used as is (no download); an id is looked up locally, then remotely. */
export const locateModel = (options: TransformersOptions): Located => {
  const asPath = resolve(options.model);
  const isFolder =
    (options.model.startsWith(".") || options.model.startsWith("/")) &&
    existsSync(asPath) &&
    statSync(asPath).isDirectory();
  return isFolder
    ? { id: basename(asPath), localModelPath: `${dirname(asPath)}/`, allowRemote: false }
    : {
        id: options.model,
        localModelPath: `${resolve(options.localModelPath ?? DEFAULT_LOCAL_MODEL_PATH)}/`,
        allowRemote: options.allowRemote ?? true,
      };
};

const failed = (what: string) => (cause: unknown) =>
  new EmbeddingFailed({ message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}` });

/** Loads the model (scoped: released with the layer) and returns the Embedder. */
export const make = Effect.fn("TransformersEmbedder.make")(function* (options: TransformersOptions) {
  const located = locateModel(options);
  const extractor = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const { env, pipeline } = await import("@huggingface/transformers");
        env.allowLocalModels = true;
        env.localModelPath = located.localModelPath;
        env.allowRemoteModels = located.allowRemote;
        if (options.cacheDir !== undefined) env.cacheDir = options.cacheDir;
        return pipeline("feature-extraction", located.id, { dtype: options.dtype ?? "fp32" });
      },
      catch: failed(
        `cannot load embedding model "${options.model}" (looked in ${located.localModelPath}${located.allowRemote ? " and on the Hugging Face hub" : ""})`,
      ),
    }),
    (loaded) => Effect.promise(() => loaded.dispose()),
  );
  const batchSize = options.batchSize ?? 16;
  const embedBatch = (texts: ReadonlyArray<string>) =>
    Effect.tryPromise({
      try: async () => {
        const output = await extractor([...texts], { pooling: "mean", normalize: true });
        const [rows, width] = output.dims as [number, number];
        const data = output.data as Float32Array;
        return Array.from({ length: rows }, (_, r) => data.slice(r * width, (r + 1) * width));
      },
      catch: failed(`embedding with ${options.model} failed`),
    });
  const embed = (texts: ReadonlyArray<string>) =>
    Effect.map(Effect.forEach(Arr.chunksOf(texts, batchSize), embedBatch), (parts) => parts.flat());
  // The width is a property of the model; one probe tells it without parsing its config.
  const [probe] = yield* embed(["dimension probe"]);
  return Embedder.of({ name: `transformers:${located.id}`, dimensions: probe!.length, embed });
});

/** The transformers embedder for `options.model`; fails with EmbeddingFailed when it cannot load. */
export const layer = (options: TransformersOptions) => Layer.effect(Embedder, make(options));
