/**
 * `ops.deletions`: deletions asked for (deleteSite, deletePage, `tally delete`) and not done yet (issue 30):
 * `{ _id, site, page, requestedAt }`, one document per site or page, so a pending deletion survives a restart and
 * whichever instance runs its job next carries it out. A done deletion's document is deleted too: nothing stays
 * behind that names the site or page.
 */
import type { Collection, Db } from 'mongodb';

export const DELETIONS_COLLECTION = 'ops.deletions';

/** A whole site (with its totals), or one page of it. */
export interface DeletionTarget {
  readonly site: string;
  /** Absent: the whole site. */
  readonly page?: string | undefined;
}

export interface PendingDeletion extends DeletionTarget {
  /** The latest request for this target (epoch ms): everything stored before it goes. */
  readonly requestedAt: number;
}

export interface DeletionDocument {
  _id: string;
  site: string;
  page: string | null;
  requestedAt: Date;
}

/** Pending deletions read per run at most; the rest wait for the next run. */
export const DELETIONS_PER_RUN = 100;

export function deletionsCollection(db: Db): Collection<DeletionDocument> {
  return db.collection<DeletionDocument>(DELETIONS_COLLECTION);
}

/** The site alone, or the site and page as in counter ids (a site holds no "/", a page starts with one). */
export function deletionId(target: DeletionTarget): string {
  return `${target.site}${target.page ?? ''}`;
}

/** Records the request, or moves an earlier one's `requestedAt` up to `now` (asking again is harmless). */
export async function requestDeletion(
  collection: Collection<DeletionDocument>,
  target: DeletionTarget,
  now: number,
): Promise<PendingDeletion> {
  const _id = deletionId(target);
  await collection.updateOne(
    { _id },
    { $setOnInsert: { site: target.site, page: target.page ?? null }, $max: { requestedAt: new Date(now) } },
    { upsert: true },
  );
  const stored = await collection.findOne({ _id });
  return stored ? toPending(stored) : { ...target, requestedAt: now };
}

export async function pendingDeletions(collection: Collection<DeletionDocument>): Promise<PendingDeletion[]> {
  const documents = await collection.find({}).sort({ _id: 1 }).limit(DELETIONS_PER_RUN).toArray();
  return documents.map(toPending);
}

export function countPendingDeletions(collection: Collection<DeletionDocument>): Promise<number> {
  return collection.countDocuments({});
}

/**
 * Marks `deletion` done: its document goes, unless it was asked for again since it was read (a later
 * `requestedAt`); then it stays pending and the next run deletes once more.
 */
export async function completeDeletion(
  collection: Collection<DeletionDocument>,
  deletion: PendingDeletion,
): Promise<boolean> {
  const result = await collection.deleteOne({
    _id: deletionId(deletion),
    requestedAt: { $lte: new Date(deletion.requestedAt) },
  });
  return result.deletedCount === 1;
}

function toPending(document: DeletionDocument): PendingDeletion {
  return {
    site: document.site,
    ...(document.page === null ? {} : { page: document.page }),
    requestedAt: document.requestedAt.getTime(),
  };
}
