/**
 * The stranger floods on the ceilings of hosted sites (strangers-bench.ts runs them after its
 * own): payment details asked from tens of thousands of addresses on every site (a memo
 * reference is sealed: nothing may be kept), the free answers of every site asked by one address
 * and by many (at most FREE_QUESTIONS_ACROSS_SITES in all per address), and sites asked in turn
 * by new addresses so that each question needs its site's index loaded (loads admitted by the
 * per-minute budget of cold index loads).
 */
import { FREE_PER_SITE } from "./strangers-sites.ts";

/** What the bench gives a flood: its addresses, requests and readings. */
export interface FloodKit<R> {
  /** The n-th stranger's address (an IPv6 /64 of its own). */
  readonly stranger: (n: number) => string;
  readonly get: (path: string, from: string) => Promise<Response>;
  readonly post: (path: string, from: string, body: unknown) => Promise<Response>;
  readonly read: () => Promise<R>;
  /** `send(n)` for n from 0, CONCURRENCY at a time, until `count` were sent (or the time is up). */
  readonly flood: (
    send: (n: number) => Promise<Response>,
    count?: number,
  ) => Promise<{ requests: number; statuses: Record<number, number> }>;
  /** The hosted sites' ids. */
  readonly sites: ReadonlyArray<string>;
}

/** Strangers of these floods start here, past the addresses of the bench's own floods. */
const INFO_BASE = 1 << 24;
const FREE_BASE = 2 << 24;
const COLD_BASE = 3 << 24;
/** Asked of the docs (this repository's README and docs): answered, not declined. */
const QUESTION = { message: "How do I pay for more questions?" };
/** The window of the cold-index-loads ceiling: a UTC minute. */
const MINUTE_MS = 60_000;

const sitePath = (site: string | undefined, path: string) =>
  site === undefined ? path : `/sites/${site}${path}`;

/** `addresses` addresses each ask the payment details of two sites (the default one among them). */
export const infoFlood = async <R>(kit: FloodKit<R>, addresses: number) => {
  const where = [undefined, ...kit.sites];
  const memos = new Set<string>();
  const result = await kit.flood(async (n) => {
    const response = await kit.get(
      sitePath(where[n % where.length], "/api/payment/info"),
      kit.stranger(INFO_BASE + (n % addresses)),
    );
    // A sample of the memos: every one differs (per address and per site).
    if (n % 97 === 0 && response.status === 200) {
      const { memo } = (await response.clone().json()) as { memo: string };
      memos.add(memo);
    }
    return response;
  }, 2 * addresses);
  return { ...result, sampled: Math.ceil((2 * addresses) / 97), distinctMemos: memos.size };
};

/** Free answers: one address asks every site, then `addresses` more do, site by site. */
export const freeAnswersFlood = async <R>(kit: FloodKit<R>, addresses: number) => {
  const answered = new Map<number, number>();
  const ask = async (site: string, address: number) => {
    const response = await kit.post(sitePath(site, "/api/chat"), kit.stranger(FREE_BASE + address), QUESTION);
    if (
      response.status === 200 &&
      ((await response.clone().json()) as { declined: boolean }).declined === false
    )
      answered.set(address, (answered.get(address) ?? 0) + 1);
    return response;
  };
  // The one address: every question every site offers it, and one more each.
  const single: Record<number, number> = {};
  for (const site of kit.sites)
    for (let i = 0; i <= FREE_PER_SITE; i++) {
      const response = await ask(site, 0);
      await response.arrayBuffer();
      single[response.status] = (single[response.status] ?? 0) + 1;
    }
  const perSite = addresses * (FREE_PER_SITE + 1);
  // Site by site (each site's index loaded once), each address asking as often as the site offers and once more.
  const many = await kit.flood(
    (n) =>
      ask(
        kit.sites[Math.floor(n / perSite)] as string,
        1 + (Math.floor(n / (FREE_PER_SITE + 1)) % addresses),
      ),
    kit.sites.length * perSite,
  );
  const others = [...answered.entries()].filter(([address]) => address !== 0).map(([, count]) => count);
  return {
    single,
    singleAnswered: answered.get(0) ?? 0,
    many,
    manyAnswered: others.reduce((sum, count) => sum + count, 0),
    mostByOne: Math.max(0, ...others),
  };
};

/**
 * Sites asked in turn, each question from a new address (its free question needs the index).
 * `since` is when the loads counted began (the free answers' flood loads sites too).
 */
export const coldLoadsFlood = async <R>(kit: FloodKit<R>, since: number) => {
  const result = await kit.flood((n) =>
    kit.post(sitePath(kit.sites[n % kit.sites.length], "/api/chat"), kit.stranger(COLD_BASE + n), QUESTION),
  );
  // The budget is per UTC minute: the loads counted span this many of its windows.
  const windows = Math.floor(Date.now() / MINUTE_MS) - Math.floor(since / MINUTE_MS) + 1;
  return { ...result, windows };
};

/** What the figures read of a reading (strangers-bench.ts's Reading). */
interface Held {
  readonly entries: Readonly<Record<string, number>>;
  readonly rssMb: number;
  readonly redisMb: number | undefined;
  readonly redisKeys: number | undefined;
  readonly loads: number;
  readonly coldRefused: number;
}

export interface CeilingRun {
  readonly beforeInfo: Held;
  readonly floodInfo: Awaited<ReturnType<typeof infoFlood>>;
  readonly afterInfo: Held;
  readonly floodFree: Awaited<ReturnType<typeof freeAnswersFlood>>;
  /** Read before the free answers' flood, the first to load the sites' indexes. */
  readonly beforeLoads: Held;
  readonly beforeCold: Held;
  readonly floodCold: Awaited<ReturnType<typeof coldLoadsFlood>>;
  readonly afterCold: Held;
}

const total = (held: Held) => Object.values(held.entries).reduce((sum, entries) => sum + entries, 0);
const heldText = (held: Held) =>
  held.redisKeys === undefined
    ? `${total(held)} entries (every structure); RSS ${held.rssMb.toFixed(1)} MB`
    : `${held.redisKeys} Redis keys, Redis ${(held.redisMb ?? 0).toFixed(1)} MB; RSS ${held.rssMb.toFixed(1)} MB`;
const statusText = (statuses: Record<number, number>) =>
  Object.entries(statuses)
    .map(([status, count]) => `${count} x ${status}`)
    .join(", ");
const en = (value: number) => value.toLocaleString("en");

/** The figures and notes of the hosted sites' floods on one store, held to the ceilings' defaults. */
export const ceilingFigures = (
  store: string,
  r: CeilingRun,
  the: {
    readonly addresses: number;
    readonly freeAddresses: number;
    readonly sites: number;
    readonly freeAcrossSites: number;
    readonly coldLoadsPerMinute: number;
    readonly sitesMemoryMb: number;
  },
) => {
  const kept = (before: Held, after: Held) =>
    after.redisKeys === undefined
      ? total(after) <= total(before)
      : after.redisKeys <= (before.redisKeys ?? 0);
  // Counted from the free answers' flood on: both load indexes, against the same budget.
  const loads = r.afterCold.loads - r.beforeLoads.loads;
  const figures = [
    {
      measure: `${store}: payment-details flood, ${en(r.floodInfo.requests)} GET /api/payment/info from ${en(the.addresses)} addresses over ${the.sites + 1} sites`,
      value: `${heldText(r.afterInfo)}; ${r.floodInfo.distinctMemos} distinct memos of ${r.floodInfo.sampled} sampled`,
      baseline: heldText(r.beforeInfo),
      goal: "nothing kept (a memo reference is sealed): no entry and no key more",
      met: kept(r.beforeInfo, r.afterInfo) && r.floodInfo.distinctMemos === r.floodInfo.sampled,
    },
    {
      measure: `${store}: free answers of ${the.sites} sites (${FREE_PER_SITE} free each), one address asking each ${FREE_PER_SITE + 1} times`,
      value: `${r.floodFree.singleAnswered} answered`,
      baseline: `${the.sites * FREE_PER_SITE} offered by the sites together`,
      goal: `<= ${the.freeAcrossSites} per address, across sites`,
      met: r.floodFree.singleAnswered <= the.freeAcrossSites,
    },
    {
      measure: `${store}: the same from ${the.freeAddresses} addresses, site by site (${en(r.floodFree.many.requests)} questions)`,
      value: `${en(r.floodFree.manyAnswered)} answered, at most ${r.floodFree.mostByOne} by one address`,
      baseline: `${en(the.freeAddresses * the.sites * FREE_PER_SITE)} offered by the sites together`,
      goal: `<= ${the.freeAcrossSites} per address (${en(the.freeAcrossSites * the.freeAddresses)} in all)`,
      met: r.floodFree.mostByOne <= the.freeAcrossSites,
    },
    {
      measure: `${store}: cold-load flood, ${en(r.floodCold.requests)} questions from new addresses to ${the.sites} sites in turn (SITES_MEMORY_MB=${the.sitesMemoryMb}: the indexes do not all fit)`,
      value: `${loads} index loads over ${r.floodCold.windows} UTC minute(s), the free answers' flood's included; ${en(r.afterCold.coldRefused - r.beforeCold.coldRefused)} questions refused 503`,
      baseline: `${en(r.floodCold.requests)} loads without the budget (each question a load)`,
      goal: `<= ${the.coldLoadsPerMinute} a minute (the service's budget)`,
      met: loads <= r.floodCold.windows * the.coldLoadsPerMinute,
    },
  ];
  const notes = [
    `${store}: payment-details flood ${statusText(r.floodInfo.statuses)}; free answers, one address ${statusText(r.floodFree.single)}, ${the.freeAddresses} addresses ${statusText(r.floodFree.many.statuses)}; cold-load flood ${statusText(r.floodCold.statuses)}.`,
  ];
  return { figures, notes };
};
