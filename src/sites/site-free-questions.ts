/**
 * The largest number of free questions a day the service's sites give: the default site's and
 * the sites file's, as last applied. free-questions-across-sites is never below it
 * (core/ceilings/ceilings.ts), and every site's runtime, the default one too, reads this one
 * value (LargestSiteFreeQuestions), so the sites agree on the cross-site cap and a reload that
 * raises a site's free questions lifts it on every site at once. Made once by the service before
 * any runtime is built, like the attribution of transfers (site-attribution.ts).
 */
export const siteFreeQuestions = (defaultSite: number) => {
  let largest = defaultSite;
  let total = defaultSite;
  return {
    /** What each site's runtime reads (a getter: it changes under running sites on a reload). */
    largest: (): number => largest,
    /** The free questions of every site together (AllSitesFreeQuestions), read the same way. */
    total: (): number => total,
    /** The sites file's sites, each time they are applied. */
    applied: (sites: ReadonlyArray<{ readonly freeQueries: number }>) => {
      largest = Math.max(defaultSite, ...sites.map((site) => site.freeQueries));
      total = sites.reduce((sum, site) => sum + site.freeQueries, defaultSite);
    },
  };
};

export type SiteFreeQuestions = ReturnType<typeof siteFreeQuestions>;
