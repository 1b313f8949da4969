export {
  type CacheOptions,
  type CacheOutcome,
  cacheKeys,
  normaliseQuestion,
  withCache,
} from "./with-cache.ts";
export { type FallbackEvent, type FallbackOptions, withFallback } from "./with-fallback.ts";
