export { type GeneratorSettings, generatorLayerFromConfig } from "./from-config.ts";
export { type FallbackEvent, type FallbackOptions, withFallback } from "./with-fallback.ts";
