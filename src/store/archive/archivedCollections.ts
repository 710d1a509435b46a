/**
 * Every collection tally owns, in the order a dump writes them, and how a merging restore combines an archived
 * document with the target's:
 * - `add`: counters, sketches and markers (mergeOperation): counters are added, sketch words ORed, packed forms
 *   unpacked first. The counter documents, and the impression counts.
 * - `keep`: the target's document wins where it has one (the request ledger: a key seen by both keeps the target's
 *   record; beacon salts; the visitor secret, see restoreArchive; pending deletions).
 * A new collection of tally's must be added here (test/unit/store/archive/mergeOperation.test.ts lists
 * the store's collection names and fails on one missing).
 */
import { DAILY_COLLECTION } from '../dailyStats';
import { EVENTS_DAILY_COLLECTION } from '../eventsDaily';
import { EVENTS_MONTHLY_COLLECTION } from '../eventsMonthly';
import { DELETIONS_COLLECTION } from '../deletionRequests';
import { IMPRESSION_ITEMS_COLLECTION } from '../impressionItems';
import { IMPRESSION_PAIRS_COLLECTION } from '../impressionPairs';
import { MONTHLY_COLLECTION } from '../monthlyStats';
import { PAGE_DIGESTS_COLLECTION } from '../pageDigests';
import { ROLLUPS_COLLECTION } from '../pageRollups';
import { REQUESTS_COLLECTION } from '../requestLedger';
import { SECONDS_COLLECTION } from '../secondStats';
import { VISITOR_SALTS_COLLECTION } from '../VisitorSaltStore';
import { VISITOR_SECRET_COLLECTION } from '../visitorSecret';
import { VISIT_SESSIONS_COLLECTION } from '../visitSessions';

export type MergeRule = 'add' | 'keep';

export interface ArchivedCollection {
  readonly name: string;
  readonly merge: MergeRule;
  /** Whether a document here means the database holds data (the secret and salts are made by a bare start). */
  readonly data: boolean;
}

export const ARCHIVED_COLLECTIONS: readonly ArchivedCollection[] = [
  // The secret first: a restore has decided which secret the database keeps before any sketch arrives.
  { name: VISITOR_SECRET_COLLECTION, merge: 'keep', data: false },
  { name: VISITOR_SALTS_COLLECTION, merge: 'keep', data: false },
  { name: MONTHLY_COLLECTION, merge: 'add', data: true },
  { name: DAILY_COLLECTION, merge: 'add', data: true },
  { name: SECONDS_COLLECTION, merge: 'add', data: true },
  { name: EVENTS_MONTHLY_COLLECTION, merge: 'add', data: true },
  { name: EVENTS_DAILY_COLLECTION, merge: 'add', data: true },
  { name: IMPRESSION_PAIRS_COLLECTION, merge: 'add', data: true },
  { name: IMPRESSION_ITEMS_COLLECTION, merge: 'add', data: true },
  { name: REQUESTS_COLLECTION, merge: 'keep', data: true },
  // Hits per page of each site-day and site-month (pageRollups): counters, added as the others. Not data by
  // themselves: a bare start writes the rollups' marker, and the counters they copy say whether there is data.
  // restoreArchive settles the marker itself.
  { name: ROLLUPS_COLLECTION, merge: 'add', data: false },
  // Copies of the counters (pageDigests), checked against the site's counts when read: a digest a merge outdates is
  // not used, so keeping either side's is safe.
  { name: PAGE_DIGESTS_COLLECTION, merge: 'keep', data: false },
  // Visits in progress: the target's own sessions win; an archived one continues its visit if it has not expired.
  { name: VISIT_SESSIONS_COLLECTION, merge: 'keep', data: false },
  // Pending deletions: a restored archive goes on deleting what its source was deleting.
  { name: DELETIONS_COLLECTION, merge: 'keep', data: false },
];

export function archivedCollection(name: string): ArchivedCollection | undefined {
  return ARCHIVED_COLLECTIONS.find((collection) => collection.name === name);
}
