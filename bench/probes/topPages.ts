/**
 * `npm run build && node dist/bench/probes/topPages.js [--pages 1000,100000] [--runs 3]`: "top 10 pages over the last
 * 30 days" for one site with N distinct pages, against MONGODB_URI or an embedded server in a temporary directory.
 * Loads each page's monthly documents (30 days spanning a month end, Zipf-like hits) with insertMany, then times
 * TopPagesQuery (the resolver's use-case, through the store's SitePageScan) and counts what crossed the wire.
 * Then adds the site-day documents' page rollups as versions before `stats.rollups` wrote them (`--rollup-pages`,
 * TOP_PAGES_ROLLUP_PAGES) and times it again, then the page rollups' own documents (pageRollups: day and month
 * documents, and the marker vouching for them) and times it a third time.
 * Prints one Markdown table row per size and source; docs/benchmarks.md ("Top pages") quotes them.
 */
import os from 'node:os';
import type { Document } from 'mongodb';
import { createLogger } from '../../src/logging/createLogger';
import { TopPagesQuery } from '../../src/query/TopPagesQuery';
import { detectEngine } from '../../src/store/EngineInfo';
import { writePolicyFor } from '../../src/store/WritePolicy';
import type { Database } from '../../src/store/connectDatabase';
import { MONTHLY_COLLECTION, monthlyDocumentId } from '../../src/store/monthlyStats';
import { ROLLUP_MARKER_ID, ROLLUPS_COLLECTION } from '../../src/store/pageRollups';
import { DAILY_COLLECTION, dailyDocumentId } from '../../src/store/dailyStats';
import { dimensionKey } from '../../src/domain/dimensions/dimensionKey';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { SitePageScan } from '../../src/store/SitePageScan';
import { startEmbeddedDatabase } from '../../src/store/embedded/startEmbeddedDatabase';
import { MonitoredClient, writeCommands } from '../shared/MonitoredClient';
import { parseOptions } from '../shared/options';

const DAY = 86_400_000;
const FROM = Date.parse('2026-10-20T00:00:00Z');
const TO = FROM + 30 * DAY;
const INSERT_CHUNK = 1_000;

/** Page k of n gets about 1000/k hits a day on its active days (every page at least one hit on one day). */
function monthlyDocuments(site: string, pages: number): Document[] {
  const docs = new Map<string, Document>();
  for (let k = 1; k <= pages; k++) {
    const page = `/page/${k}`;
    const perDay = Math.max(1, Math.floor(1000 / k));
    const activeDays = k <= 1000 ? 30 : 1 + (k % 3);
    for (let d = 0; d < activeDays; d++) {
      const day = new Date(FROM + ((k + d * 7) % 30) * DAY);
      const month = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1);
      const id = `${new Date(month).toISOString().slice(0, 7).replace('-', '')}/${site}${page}`;
      let doc = docs.get(id);
      if (!doc) {
        doc = { _id: id, metadata: { date: new Date(month), site, page }, daily: {} };
        docs.set(id, doc);
      }
      const daily = doc.daily as Record<string, number>;
      daily[day.getUTCDate()] = (daily[day.getUTCDate()] ?? 0) + perDay;
    }
  }
  return [...docs.values()];
}

/**
 * The site-day documents' page rollups (PageRollup) for the same hits, up to `maxPages` pages a day: a day with more
 * fails the rollup's check and is ranked from the pages' documents.
 */
function siteDayRollups(site: string, pages: number, maxPages: number): Document[] {
  const days = new Map<number, { daily: number; p: Record<string, number> }>();
  for (let k = 1; k <= pages; k++) {
    const perDay = Math.max(1, Math.floor(1000 / k));
    const activeDays = k <= 1000 ? 30 : 1 + (k % 3);
    for (let d = 0; d < activeDays; d++) {
      const day = FROM + ((k + d * 7) % 30) * DAY;
      const doc = days.get(day) ?? { daily: 0, p: {} };
      days.set(day, doc);
      doc.daily += perDay;
      const key = dimensionKey(`/page/${k}`);
      if (Object.keys(doc.p).length < maxPages || doc.p[key] !== undefined) doc.p[key] = (doc.p[key] ?? 0) + perDay;
    }
  }
  return [...days].map(([day, doc]) => ({
    _id: dailyDocumentId(site, SITE_TOTAL_PAGE, day),
    metadata: { date: new Date(day), site, page: SITE_TOTAL_PAGE },
    ...doc,
  }));
}

/** The same hits as `stats.rollups` day and month documents (pageRollups), capped alike. */
function rollupDocuments(site: string, pages: number, maxPages: number): { daily: Document[]; monthly: Document[] } {
  const daily = siteDayRollups(site, pages, maxPages).map(({ daily: t, p, ...rest }): Document => ({ ...rest, t, p }));
  const months = new Map<number, { t: number; d: Record<string, number>; p: Record<string, number> }>();
  for (const day of daily) {
    const date = (day.metadata as { date: Date }).date;
    const month = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    const doc = months.get(month) ?? { t: 0, d: {}, p: {} };
    months.set(month, doc);
    doc.t += day.t as number;
    doc.d[date.getUTCDate()] = day.t as number;
    for (const [key, hits] of Object.entries(day.p as Record<string, number>)) {
      if (Object.keys(doc.p).length < maxPages || doc.p[key] !== undefined) doc.p[key] = (doc.p[key] ?? 0) + hits;
    }
  }
  const monthly = [...months].map(([month, doc]) => ({
    _id: monthlyDocumentId(site, SITE_TOTAL_PAGE, month),
    metadata: { date: new Date(month), site, page: SITE_TOTAL_PAGE },
    ...doc,
  }));
  return { daily, monthly };
}

async function main(): Promise<void> {
  const {
    pages: sizes,
    runs,
    'rollup-pages': rollupPages,
  } = parseOptions(process.argv.slice(2), {
    pages: { kind: 'integers', default: [1_000, 100_000] },
    runs: { kind: 'integer', default: 3 },
    'rollup-pages': { kind: 'integer', default: 10_000 },
  });
  const logger = createLogger({ level: 'warn', nodeEnv: 'production' });
  const embedded = process.env.MONGODB_URI
    ? undefined
    : await startEmbeddedDatabase({ engine: 'auto', dataDir: undefined, logger, now: Date.now() });
  const uri = process.env.MONGODB_URI ?? (embedded?.uri as string);
  const monitored = await new MonitoredClient(uri, { maxPoolSize: 1 }).connect();
  const engine = detectEngine(await monitored.db('admin').command({ buildInfo: 1 }));
  const db = monitored.db(`bench_top_pages_${process.pid}`);
  const database = { client: monitored.client, db, engine, policy: writePolicyFor(engine) } as unknown as Database;
  const scan = new SitePageScan(database);
  await scan.ensureIndexes();
  const query = new TopPagesQuery(scan, { maxPageSize: 100, maxDays: 10_000 });
  console.log(
    `engine: ${engine.name} ${engine.version}; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; node ${process.version}`,
  );
  console.log(
    '| pages | read from | monthly documents | load s | find / getMore | documents read | reply bytes | first ms | median ms (of runs) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  try {
    for (const pages of sizes) {
      const site = `bench-${pages}`;
      const docs = monthlyDocuments(site, pages);
      const loadStart = performance.now();
      for (let i = 0; i < docs.length; i += INSERT_CHUNK) {
        await db.collection(MONTHLY_COLLECTION).insertMany(docs.slice(i, i + INSERT_CHUNK), { ordered: false });
      }
      const loadS = (performance.now() - loadStart) / 1000;
      const modes = [
        'pages’ documents',
        `site-day documents' rollups, as before stats.rollups (≤ ${rollupPages} pages a day)`,
        `stats.rollups (≤ ${rollupPages} pages a document)`,
      ];
      for (const mode of modes) {
        if (mode === modes[0]) {
          // The marker is the database's: no rollups vouched for until the third mode writes them.
          await db.collection(ROLLUPS_COLLECTION).deleteOne({ _id: ROLLUP_MARKER_ID } as Document);
        } else if (mode === modes[1]) {
          await db
            .collection(DAILY_COLLECTION)
            .insertMany(siteDayRollups(site, pages, rollupPages), { ordered: false });
        } else if (mode === modes[2]) {
          const rollups = rollupDocuments(site, pages, rollupPages);
          await db.collection(ROLLUPS_COLLECTION).insertMany(rollups.daily, { ordered: false });
          await db.collection(ROLLUPS_COLLECTION).insertMany(rollups.monthly, { ordered: false });
          await db
            .collection(ROLLUPS_COLLECTION)
            .updateOne({ _id: ROLLUP_MARKER_ID } as Document, { $set: { day: new Date(0) } }, { upsert: true });
        }
        monitored.take();
        const times: number[] = [];
        let counts = monitored.take();
        let top = '';
        for (let run = 0; run < runs; run++) {
          const started = performance.now();
          const result = await query.topPages({ site, from: new Date(FROM), to: new Date(TO), first: 10 });
          times.push(performance.now() - started);
          const taken = monitored.take();
          if (run === 0) {
            counts = taken;
            top = `${result.edges
              .map((e) => `${e.node.page}=${e.node.hits}`)
              .slice(0, 3)
              .join(', ')}; totalCount ${result.totalCount}`;
          }
        }
        if (writeCommands(counts.commands) > 0) throw new Error('the ranking wrote something');
        const sorted = [...times].sort((a, b) => a - b);
        console.log(
          `| ${pages.toLocaleString('en-US')} | ${mode} | ${docs.length.toLocaleString('en-US')} | ${loadS.toFixed(1)} | ${counts.commands.find ?? 0} / ${counts.commands.getMore ?? 0} | ${counts.documentsReturned.toLocaleString('en-US')} | ${counts.replyBytes.toLocaleString('en-US')} | ${times[0]?.toFixed(0)} | ${sorted[sorted.length >> 1]?.toFixed(0)} (${runs}) |`,
        );
        console.log(`  top: ${top}`);
      }
    }
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await monitored.close();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
