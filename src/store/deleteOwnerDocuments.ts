/**
 * Deletes every counter document of a site (its pages and its totals) or of one page (issue 30), in the daily,
 * monthly and second-level collections: ids found on the background connection (scanIds: by `metadata.site` and
 * `metadata.page` through the shard-key indexes on MongoDB, by parsing each `_id` in one pass elsewhere), deleted by
 * `_id` list in `_id` order on each collection's writer (writeByIds), a bounded, paced command at a time.
 */
import type { Collection, Document } from 'mongodb';
import type { DeletionTarget } from './deletionRequests';
import { scanIds } from './scanIds';
import type { SweepContext } from './ttlOrSweep';
import { writeByIds } from './writeByIds';
import { pageRollupPath } from './PageRollup';
import { SITE_TOTAL_PAGE } from '../domain/siteTotal';
import type { DocumentReads } from './WritePolicy';

export interface OwnedCollection {
  readonly name: string;
  /** Where ids are looked for: the background connection. */
  readonly finder: Collection<Document>;
  /** Where documents are deleted: the collection's writer. */
  readonly writer: Collection<Document>;
}

/**
 * Whether the counter document `id` (`<period>/<site><page>`, or `<period>/<site>` for site totals) belongs to
 * `target`. The first "/" ends the period and the next one starts the page (sites hold no "/"). Pure.
 */
export function ownsDocument(target: DeletionTarget, id: string): boolean {
  const periodEnd = id.indexOf('/');
  if (periodEnd < 0) return false;
  const owner = id.slice(periodEnd + 1);
  if (target.page !== undefined) return owner === `${target.site}${target.page}`;
  return owner === target.site || owner.startsWith(`${target.site}/`);
}

/** Deletes the target's documents in every collection; resolves with how many went from each. */
export async function deleteOwnerDocuments(
  collections: readonly OwnedCollection[],
  target: DeletionTarget,
  options: { readonly reads: DocumentReads; readonly context: SweepContext },
): Promise<Map<string, number>> {
  const filter: Document = { 'metadata.site': target.site };
  if (target.page !== undefined) filter['metadata.page'] = target.page;
  const what = target.page === undefined ? 'documents of a deleted site' : 'documents of a deleted page';
  const deleted = new Map<string, number>();
  for (const collection of collections) {
    const ids = await scanIds(
      collection.finder,
      { what: `${collection.name} ${what}`, filter, matches: (id) => ownsDocument(target, id) },
      options,
    );
    deleted.set(
      collection.name,
      await writeByIds(collection.writer, ids, { kind: 'delete' }, { ...options, what: `${collection.name} ${what}` }),
    );
  }
  return deleted;
}

/**
 * Deleting a page also takes it out of its site's page rollups (PageRollup: `p.<key>` of the site's documents in
 * `collection`, the rollups or the site-day documents earlier versions wrote them in): no document names it
 * afterwards, and each of those periods, no longer adding up to its total, is ranked from the pages' documents, where
 * the page is gone. Resolves with how many documents changed.
 */
export async function unsetRolledUpPage(
  collection: OwnedCollection,
  target: DeletionTarget & { readonly page: string },
  options: { readonly reads: DocumentReads; readonly context: SweepContext },
): Promise<number> {
  const what = `${collection.name} page rollups of a deleted page`;
  const siteTotals: DeletionTarget = { site: target.site, page: SITE_TOTAL_PAGE };
  const ids = await scanIds(
    collection.finder,
    {
      what,
      filter: { 'metadata.site': target.site, 'metadata.page': SITE_TOTAL_PAGE },
      matches: (id) => ownsDocument(siteTotals, id),
    },
    options,
  );
  return writeByIds(
    collection.writer,
    ids,
    { kind: 'unset', fields: [pageRollupPath(target.page)] },
    { ...options, what },
  );
}
