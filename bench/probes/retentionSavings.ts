/**
 * Probe: the storage retention saves (issue 30). Builds a 90-day data set through the ingest path's own CounterBatch
 * (visitor sketches and every dimension, the server's default settings), as the documents its upserts create
 * (counterDocuments), compacted as the background job leaves past periods (periodCompaction: `v` → `vz`, `d` →
 * `dz`), and weighs them as BSON (what MongoDB's `Object.bsonsize` reports) before and after what each setting drops:
 * `minute` unset from daily documents older than RETENTION_MINUTES_DAYS, whole daily documents older than
 * RETENTION_DAYS. Second-level documents are left out (they expire after SECONDS_RETENTION_HOURS anyway). Prints a
 * table; no database, no thresholds.
 *   npm run build && node dist/bench/probes/retentionSavings.js [--pages 50] [--hits-per-day 3000] [--days 90]
 */
import { BSON } from 'mongodb';
import type { Document } from 'mongodb';
import type { DimensionValues } from '../../src/domain/dimensions/Dimension';
import { CounterBatch } from '../../src/store/CounterBatch';
import { periodCompaction } from '../../src/store/compactPastPeriods';
import { DimensionCounting } from '../../src/store/DimensionCounting';
import { DAY_MS, startOfDay } from '../../src/time/buckets';
import { retentionCutoffs } from '../../src/time/retentionCutoffs';
import type { RetentionSettings } from '../../src/time/retentionCutoffs';
import { parseOptions } from '../shared/options';
import { seededRandom, zipfCdf, zipfPick } from '../shared/random';
import { upsertedDocument } from '../suite/counterDocuments';

const options = parseOptions(process.argv.slice(2), {
  pages: { kind: 'integer', default: 50 },
  'hits-per-day': { kind: 'integer', default: 3_000 },
  days: { kind: 'integer', default: 90 },
});
const SITE = 'retention.example';
// The data set ends on 30 June 2026; the settings are applied at noon the next day.
const LAST_DAY = Date.UTC(2026, 5, 30);
const NOW = LAST_DAY + DAY_MS + 12 * 3_600_000;
const VISITORS = 20_000;

const random = seededRandom(30);
const pages = zipfCdf(options.pages, 1);
const visitors = zipfCdf(VISITORS, 0.8);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
const SOURCES = ['(direct)', '(internal)', 'google', 'bing', 'duckduckgo', 'news.example', 'twitter', 'reddit'];
const VALUES: readonly DimensionValues[] = Array.from({ length: 200 }, (_, i) => ({
  source: i % 3 === 0 ? `blog${i}.example` : pick(SOURCES),
  utmSource: i % 5 === 0 ? 'newsletter' : '(none)',
  utmMedium: i % 5 === 0 ? 'email' : '(none)',
  utmCampaign: i % 5 === 0 ? `week-${i % 12}` : '(none)',
  browser: pick(['Chrome', 'Firefox', 'Safari', 'Edge', 'Samsung Internet']),
  os: pick(['Windows', 'macOS', 'Android', 'iOS', 'Linux']),
  device: pick(['desktop', 'mobile', 'tablet']),
  country: pick(['US', 'DE', 'FR', 'GB', 'IN', 'BR', 'JP', 'CA', 'NL', 'SE', '(unknown)']),
}));

const batch = new CounterBatch({
  siteTotals: true,
  dimensions: new DimensionCounting({ maxValues: 1_000, visitorDimensions: ['device', 'browser', 'os'] }),
});
const firstDay = LAST_DAY - (options.days - 1) * DAY_MS;
for (let day = firstDay; day <= LAST_DAY; day += DAY_MS) {
  for (let h = 0; h < options['hits-per-day']; h++) {
    const visitor = zipfPick(visitors, random());
    batch.add({
      site: SITE,
      page: `/articles/${String(zipfPick(pages, random())).padStart(4, '0')}.html`,
      at: day + Math.floor(random() * DAY_MS),
      count: 1,
      visitor: { hi: (visitor * 2_654_435_761) >>> 0, lo: Math.imul(visitor + 1, 0x9e3779b1) >>> 0 },
      dimensions: VALUES[zipfPick(zipfCdf(VALUES.length, 1), random())] as DimensionValues,
    });
  }
}

/** The stored document once its period is over: as upserted, then compacted. */
function stored(operation: Parameters<typeof upsertedDocument>[0], level: 'daily' | 'monthly'): Document {
  const doc = upsertedDocument(operation);
  const compaction = periodCompaction(doc as never, level, 'shardKey');
  if (compaction === undefined || !('updateOne' in compaction)) return doc;
  const update = compaction.updateOne.update as { $set: Document; $unset: Document };
  for (const field of Object.keys(update.$unset)) delete doc[field];
  return { ...doc, ...update.$set };
}

const daily = batch.daily.toOperations('shardKey').map((op) => stored(op, 'daily'));
const monthly = batch.monthly.toOperations('shardKey').map((op) => stored(op, 'monthly'));
const monthlyBytes = monthly.reduce((sum, doc) => sum + BSON.calculateObjectSize(doc), 0);

function dailyBytes(settings: RetentionSettings): number {
  const { minutesFrom, daysFrom } = retentionCutoffs(NOW, settings);
  let bytes = 0;
  for (const doc of daily) {
    const date = startOfDay((doc.metadata as { date: Date }).date.getTime());
    if (date < daysFrom) continue;
    if (date < minutesFrom) {
      const { minute: _minute, ...rest } = doc;
      bytes += BSON.calculateObjectSize(rest);
    } else {
      bytes += BSON.calculateObjectSize(doc);
    }
  }
  return bytes;
}

const MB = (bytes: number): string => (bytes / 1_048_576).toFixed(1).padStart(8);
const settings: ReadonlyArray<[string, RetentionSettings]> = [
  ['(none: everything kept)', {}],
  ['RETENTION_MINUTES_DAYS=30', { minutesDays: 30 }],
  ['RETENTION_MINUTES_DAYS=7', { minutesDays: 7 }],
  ['RETENTION_MINUTES_DAYS=7, RETENTION_DAYS=30', { minutesDays: 7, days: 30 }],
  ['RETENTION_DAYS=7', { days: 7 }],
];
const all = dailyBytes({}) + monthlyBytes;
process.stdout.write(
  `${options.days} days, ${options.pages} pages, ${options['hits-per-day']} hits a day, ${VISITORS} visitors, every ` +
    `dimension: ${daily.length} daily and ${monthly.length} monthly documents (site totals included), compacted\n\n` +
    `${'setting'.padEnd(46)} ${'daily MB'.padStart(8)} ${'monthly'.padStart(8)} ${'total'.padStart(8)}  saved\n`,
);
for (const [name, setting] of settings) {
  const day = dailyBytes(setting);
  const total = day + monthlyBytes;
  const saved = `${(((all - total) / all) * 100).toFixed(0)} %`.padStart(5);
  process.stdout.write(`${name.padEnd(46)} ${MB(day)} ${MB(monthlyBytes)} ${MB(total)}  ${saved}\n`);
}
