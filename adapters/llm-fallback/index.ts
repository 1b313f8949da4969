export { type GeneratorSettings, generatorLayerFromConfig } from "./from-config.ts";
export { combine, type FallbackEvent, type FallbackOptions, withFallback } from "./with-fallback.ts";
