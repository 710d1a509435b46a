/**
 * What page goals cost with and without page digests (issue 28), on a small data set instead of eventsCost's
 * 1,000,000 hits: one site, `--pages` Zipf pages over the 30 UTC days before today at the events benchmark's
 * density (11,111 hits a day, a pool of 250,000 visitors, every dimension), written as the server writes them
 * (CounterBatch with site totals and the page rollup), compacted, and given their page digests as the compaction job
 * writes them. Then `conversions` of the three page goals of eventsCost through tally's own EventQueries and
 * SitePageScan, the digests hidden for "pages' documents", rounds alternating; and the digests' read alone. Prints
 * markdown; no thresholds. Loading takes about a minute on a 2-core machine.
 *   npm run build && node dist/bench/probes/pageGoalReads.js [--pages 200] [--rounds 11]   (MONGODB_URI to use a server)
 */
import { BSON } from 'mongodb';
import type { Db } from 'mongodb';
import { loadConfig } from '../../src/config/loadConfig';
import { loadDimensionSources } from '../../src/ingest/loadDimensionSources';
import { BreakdownQuery } from '../../src/query/BreakdownQuery';
import { EventQueries } from '../../src/query/events/EventQueries';
import type { SitePageVisitorsReader } from '../../src/query/events/EventQueries';
import { compactPastPeriods } from '../../src/store/compactPastPeriods';
import { CounterStore } from '../../src/store/CounterStore';
import { CounterBatch } from '../../src/store/CounterBatch';
import { buildPageDigests } from '../../src/store/buildPageDigests';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { PageRollup } from '../../src/store/PageRollup';
import { pageDigestsCollection } from '../../src/store/pageDigests';
import { SitePageScan } from '../../src/store/SitePageScan';
import { AudienceTraffic } from '../shared/audienceTraffic';
import { parseOptions } from '../shared/options';
import { openProbeDatabase } from '../shared/probeDatabase';
import { unitAt, zipfCdf, zipfPick } from '../shared/random';
import { elapsedMs, median } from '../shared/stats';
import { pagePath } from '../shared/traffic';
import { serverDimensionCounting } from '../suite/audienceFixtures';
import { upsertedDocument } from '../suite/counterDocuments';
import { audienceHit, EVENT_SITE, GOALS } from '../suite/eventFixtures';

const DAY_MS = 86_400_000;
const DAYS = 30;
const HITS_PER_DAY = 11_111;

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), {
    pages: { kind: 'integer', default: 200 },
    rounds: { kind: 'integer', default: 11 },
  });
  const probe = await openProbeDatabase('page_goal_reads');
  try {
    const { db } = probe.database;
    const today = Date.now() - (Date.now() % DAY_MS);
    const first = today - DAYS * DAY_MS;
    const started = process.hrtime.bigint();
    const ids = await load(db, first, options.pages);
    const daily = db.collection(DAILY_COLLECTION, { promoteBuffers: true });
    await compactPastPeriods(daily, daily, 'daily', ids, { targeting: 'shardKey' });
    const loadMs = elapsedMs(started);
    const digestsStarted = process.hrtime.bigint();
    const digests = await buildPageDigests(new CounterStore(probe.database).digestSources(), 'daily', ids);
    const digestMs = elapsedMs(digestsStarted);
    const stored = await pageDigestsCollection(db).find({}).toArray();
    const bytes = stored.map((doc) => BSON.calculateObjectSize(doc));
    console.log(
      `### Page goals with and without page digests (${probe.label})\n\n` +
        `${options.pages} pages × ${DAYS} days, ${(HITS_PER_DAY * DAYS).toLocaleString('en-US')} hits, stored and ` +
        `compacted in ${(loadMs / 1000).toFixed(1)} s; ${digests} day digests written in ${digestMs.toFixed(0)} ms, ` +
        `BSON bytes mean ${Math.round(bytes.reduce((a, b) => a + b, 0) / Math.max(1, bytes.length))}, ` +
        `largest ${Math.max(0, ...bytes)}.\n`,
    );
    const scan = new SitePageScan(probe.database);
    const hidden: SitePageVisitorsReader = {
      pageDigests: () => Promise.resolve({ days: new Map(), months: new Map() }),
      pageRollups: (site, days) => scan.pageRollups(site, days),
      forEachPageById: (site, pages, onDocument) => scan.forEachPageById(site, pages, onDocument),
      forEachPage: (site, dates, fields, onDocument, visitors) =>
        scan.forEachPage(site, dates, fields, onDocument, visitors),
    };
    const queries = (reader: SitePageVisitorsReader): EventQueries =>
      new EventQueries(
        new BreakdownQuery({ maxPageSize: 100, maxDays: 1_000, dimensionVisitors: new Set() }),
        { maxDays: 1_000 },
        reader,
      );
    const pageGoals = GOALS.filter((goal) => goal.page !== undefined);
    const variants = [
      ['page digests', queries(scan)],
      ["pages' documents (digests hidden)", queries(hidden)],
    ] as const;
    const conversions = (q: EventQueries) =>
      q.conversions({ site: EVENT_SITE, page: '', from: first, to: today }, q.parseGoals(pageGoals), {
        events: () => Promise.reject(new Error('no event goal is asked for')),
        siteVisitors: () => Promise.resolve(250_000),
      });
    const answers = await Promise.all(variants.map(([, q]) => conversions(q)));
    const same = JSON.stringify(answers[0]) === JSON.stringify(answers[1]);
    const times = new Map<string, number[]>();
    const time = async (label: string, run: () => Promise<unknown>): Promise<void> => {
      const start = process.hrtime.bigint();
      await run();
      times.set(label, [...(times.get(label) ?? []), elapsedMs(start)]);
    };
    const days = Array.from({ length: DAYS }, (_, i) => first + i * DAY_MS);
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const [label, q] of order) await time(`conversions of the 3 page goals, ${label}`, () => conversions(q));
      await time(`the page digests' read alone (${DAYS} digests and the site-month check)`, () =>
        scan.pageDigests(EVENT_SITE, { days, months: [] }),
      );
    }
    console.log(`| read (${probe.label}) | median ms | min ms | rounds |\n| --- | --- | --- | --- |`);
    for (const [label, ms] of times) {
      console.log(`| ${label} | ${median(ms).toFixed(1)} | ${Math.min(...ms).toFixed(1)} | ${ms.length} |`);
    }
    console.log(`\nthe same answers both ways: ${same}`);
    for (const c of answers[0] ?? []) console.log(`- ${c.goal}: ${c.events} hits, ${c.visitors} visitors`);
  } finally {
    await probe.close();
  }
}

/** Stores the days' documents and the months' site and page documents; resolves with the daily ids to compact. */
async function load(db: Db, first: number, pages: number): Promise<string[]> {
  const pageRollup = new PageRollup({ maxPages: loadConfig({}).dashboards.topPagesRollupPages });
  const dimensions = serverDimensionCounting();
  const context = { siteHost: EVENT_SITE, ...loadDimensionSources(undefined) };
  const audience = new AudienceTraffic({
    seed: 2829,
    visitors: 250_000,
    visitorZipfS: 0.6,
    siteHost: EVENT_SITE,
    longTailHosts: 1_000,
    longTailZipfS: 0,
  });
  const cdf = zipfCdf(pages, 1);
  const ids: string[] = [];
  const months = new CounterBatch();
  for (let day = 0; day < DAYS; day++) {
    const dayStart = first + day * DAY_MS;
    const batch = new CounterBatch({ siteTotals: true, dimensions, pageRollup });
    for (let k = 0; k < HITS_PER_DAY; k++) {
      const i = day * HITS_PER_DAY + k;
      const page = pagePath(zipfPick(cdf, unitAt(6006, i)));
      const who = audience.hit(i);
      batch.add(
        audienceHit(who, page, dayStart + Math.floor(((k + unitAt(6007, i)) * DAY_MS) / HITS_PER_DAY), context),
      );
    }
    await db
      .collection(DAILY_COLLECTION)
      .insertMany(batch.daily.toOperations('shardKey').map(upsertedDocument), { ordered: false });
    ids.push(...batch.daily.compactableKeys().map((key) => key.id));
    months.monthly.absorb(batch.monthly);
  }
  await db
    .collection(MONTHLY_COLLECTION)
    .insertMany(months.monthly.toOperations('shardKey').map(upsertedDocument), { ordered: false });
  return ids;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
