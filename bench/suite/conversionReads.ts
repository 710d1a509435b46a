/**
 * Where a 30-day `conversions` request of the five goals spends its time (issue 28): each read it makes, timed over
 * the driver through tally's own store classes on the stored data (eventFixtures), with the documents and BSON bytes
 * it returns — the event documents of the event goals (and, beside them, their counts alone, without the visitor
 * sketches), the site-day page rollups, the matching pages' documents by id, the page digests that replace both
 * where current, and the site-day sketches the site's visitors come from. Reads run one after the other, so each
 * time is the read's own.
 */
import { BSON } from 'mongodb';
import type { Document } from 'mongodb';
import { dimensionKey } from '../../src/domain/dimensions/dimensionKey';
import { parsePageGoal } from '../../src/domain/events/pageGoal';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import type { Database } from '../../src/store/connectDatabase';
import { DAILY_COLLECTION, dailyDocumentId } from '../../src/store/dailyStats';
import { eventNamePaths } from '../../src/store/eventDocument';
import { eventsDailyId } from '../../src/store/eventsDaily';
import { EventStore } from '../../src/store/EventStore';
import type { PageDate } from '../../src/store/SitePageScan';
import { pageDigestId, pageDigestsCollection } from '../../src/store/pageDigests';
import { SitePageScan } from '../../src/store/SitePageScan';
import { elapsedMs, median } from '../shared/stats';
import { EVENT_SITE, GOALS } from './eventFixtures';

const DAY_MS = 86_400_000;

export interface ReadCell {
  readonly label: string;
  readonly medianMs: number;
  readonly documents: number;
  readonly bytes: number;
}

/** The reads of a conversions request over the `days` UTC days ending at `end`, each timed `repeats` times. */
export async function timeConversionReads(
  database: Database,
  end: number,
  days: number,
  repeats: number,
): Promise<ReadCell[]> {
  const events = new EventStore(database);
  const pages = new SitePageScan(database);
  const dates = Array.from({ length: days }, (_, i) => end - (days - i) * DAY_MS);
  const eventIds = dates.map((day) => eventsDailyId(EVENT_SITE, SITE_TOTAL_PAGE, day));
  const names = GOALS.flatMap((goal) => (goal.event === undefined ? [] : [dimensionKey(goal.event)]));
  const matchers = GOALS.flatMap((goal) => (goal.page === undefined ? [] : [parsePageGoal(goal.page, 'goal')]));
  const rollups = await pages.pageRollups(EVENT_SITE, dates);
  const byId: PageDate[] = [];
  for (const [date, rollup] of rollups) {
    for (const page of rollup.keys()) if (matchers.some((matches) => matches(page))) byId.push({ page, date });
  }
  const reads: Array<[string, () => Promise<Document[]>]> = [
    [
      `event documents of the ${names.length} event goals (n, ev, r)`,
      () =>
        events.find(
          'day',
          eventIds,
          names.flatMap((name) => eventNamePaths(name, ['n', 'ev', 'r'])),
        ),
    ],
    [
      'the same, counts only (n): without the visitor sketches',
      () =>
        events.find(
          'day',
          eventIds,
          names.flatMap((name) => eventNamePaths(name, ['n'])),
        ),
    ],
    [
      `site-day page rollups (${days} site-day documents, p and daily)`,
      async () => [...(await pages.pageRollups(EVENT_SITE, dates)).values()].map((m) => Object.fromEntries(m)),
    ],
    [
      `the ${byId.length} page-day documents the page goals match, by id (v, vz)`,
      async () => {
        const docs: Document[] = [];
        await pages.forEachPageById(EVENT_SITE, { monthly: [], daily: byId }, (doc) => docs.push(doc));
        return docs;
      },
    ],
    [
      `the page digests of the ${days} days (every page's hits and sketch), which replace the two reads above`,
      () =>
        pageDigestsCollection(database.db)
          .find({ _id: { $in: dates.map((day) => pageDigestId(EVENT_SITE, 'day', day)) } })
          .toArray(),
    ],
    [
      `site-day visitor sketches (${days} documents, v and vz)`,
      () =>
        database.db
          .collection(DAILY_COLLECTION)
          .find({ _id: { $in: dates.map((day) => dailyDocumentId(EVENT_SITE, SITE_TOTAL_PAGE, day)) } } as Document, {
            projection: { v: 1, vz: 1 },
          })
          .toArray(),
    ],
  ];
  const cells: ReadCell[] = [];
  for (const [label, read] of reads) {
    const times: number[] = [];
    let docs: Document[] = [];
    for (let i = 0; i < repeats; i++) {
      const start = process.hrtime.bigint();
      docs = await read();
      times.push(elapsedMs(start));
    }
    const bytes = docs.reduce((sum, doc) => sum + BSON.calculateObjectSize(doc), 0);
    cells.push({ label, medianMs: median(times), documents: docs.length, bytes });
  }
  return cells;
}
