/**
 * Seed-style document ids: `<period>/<site><page>`. A site never contains "/" (parseSite) and a page always
 * starts with "/", so the first "/" after the period ends the site: two (site, page) pairs cannot share an id.
 */
export function documentId(period: string, site: string, page: string): string {
  return `${period}/${site}${page}`;
}
