/**
 * Site totals live in the page collections (`stats.daily`, `stats.monthly`) as documents whose page is the empty
 * string: `_id` "<period>/<site>" (a page id always has a "/" after the site, so the two never collide), the same
 * seed shape, the same shard key (site, "") so every read and write of them targets one shard, and the same index.
 * Real pages start with "/" (parsePage), so no hit can address these documents directly.
 */
export const SITE_TOTAL_PAGE = '';

export function isSiteTotal(page: string): boolean {
  return page === SITE_TOTAL_PAGE;
}
