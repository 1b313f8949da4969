export { type FallbackEvent, type FallbackOptions, withFallback } from "./with-fallback.ts";
