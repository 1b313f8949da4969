/**
 * A full collection now, where the runtime offers one (Bun.gc; `gc` under node/deno with
 * --expose-gc), else nothing. Called after a one-off burst of garbage the engine would
 * otherwise keep resident for seconds: indexing 55 sites' folders at a first start peaked at
 * 524 MB RSS right after start (190 MB five seconds later); with a collection after each site,
 * 197 MB, for 3 s more over the 17 s of indexing (dev/bench/sites-service-bench.ts's corpus).
 */
export const collectGarbage = (): void => {
  const runtime = globalThis as { Bun?: { gc: (sync: boolean) => void }; gc?: () => void };
  if (runtime.Bun !== undefined) runtime.Bun.gc(true);
  else runtime.gc?.();
};
