/**
 * Where event counters should live (issue 28): the cost of one event's `$inc` into the site-day document the hot
 * path already rewrites (grown by realistic traffic: visitor sketch and dimension counters) against the same `$inc`
 * into a separate, small event document. FerretDB rewrites a whole document per update, so the cost follows the
 * document's size. Prints each document's BSON size and the p50 of `--updates` updates of each, alternated.
 * Run: `npm run build && node dist/bench/probes/eventPlacement.js` (MONGODB_URI to use a running server).
 */
import { BSON } from 'mongodb';
import type { Document } from 'mongodb';
import type { Hit } from '../../src/domain/Hit';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { createLogger } from '../../src/logging/createLogger';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { connectDatabase } from '../../src/store/connectDatabase';
import { DAILY_COLLECTION, dailyDocumentId } from '../../src/store/dailyStats';
import { DimensionCounting } from '../../src/store/DimensionCounting';
import { startEmbeddedDatabase } from '../../src/store/embedded/startEmbeddedDatabase';
import { EVENTS_DAILY_COLLECTION, eventsDailyId } from '../../src/store/eventsDaily';
import { parseOptions } from '../shared/options';

const DAY = Date.UTC(2026, 4, 20);
const SITE = 'probe.example';

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), {
    updates: { kind: 'integer', default: 200 },
    visitors: { kind: 'integer', default: 2_000 },
  });
  const logger = createLogger({ level: 'warn', nodeEnv: 'production' });
  const embedded = process.env.MONGODB_URI
    ? undefined
    : await startEmbeddedDatabase({ engine: 'auto', dataDir: undefined, logger, now: Date.now() });
  const database = await connectDatabase({
    uri: process.env.MONGODB_URI ?? (embedded?.uri as string),
    dbName: `bench_event_placement_${process.pid}`,
    logger,
  });
  try {
    console.log(`engine: ${database.engine.name} ${database.engine.version}`);
    const store = new CounterStore(database);
    await store.ensureIndexes();
    // A day of a site: `--visitors` visitors, three hits each, spread over sources, countries and browsers.
    const batch = new CounterBatch({
      siteTotals: true,
      dimensions: new DimensionCounting({ maxValues: 100, visitorDimensions: ['browser', 'os', 'device'] }),
    });
    for (let i = 0; i < options.visitors * 3; i++) {
      const v = i % options.visitors;
      const hit: Hit = {
        site: SITE,
        page: `/p${i % 50}`,
        at: DAY + (i % 86_400) * 1_000,
        count: 1,
        visitor: { hi: v, lo: (v * 2654435761) >>> 0 },
        dimensions: {
          source: `source${i % 40}.example`,
          utmSource: '(none)',
          utmMedium: '(none)',
          utmCampaign: '(none)',
          browser: ['Chrome', 'Firefox', 'Safari'][i % 3] as string,
          os: ['Linux', 'Windows', 'macOS', 'iOS'][i % 4] as string,
          device: ['desktop', 'mobile'][i % 2] as string,
          country: `C${i % 60}`,
        },
      };
      batch.add(hit);
    }
    for (const part of batch.split(500)) await store.write(part);
    // The event document as the real path makes it: a few event names with properties and dimensions.
    const events = new CounterBatch({ siteTotals: true });
    for (let i = 0; i < 300; i++) {
      events.add({
        site: SITE,
        page: '/checkout',
        at: DAY + i * 1_000,
        count: 1,
        event: { name: ['Signup', 'Purchase', 'Download'][i % 3] as string, props: [['plan', `p${i % 5}`]] },
      });
    }
    await store.write(events);

    const hot = {
      collection: database.db.collection(DAILY_COLLECTION),
      id: dailyDocumentId(SITE, SITE_TOTAL_PAGE, DAY),
    };
    const apart = {
      collection: database.db.collection(EVENTS_DAILY_COLLECTION),
      id: eventsDailyId(SITE, SITE_TOTAL_PAGE, DAY),
    };
    for (const [name, target] of [
      ['site-day stats document', hot],
      ['separate event document', apart],
    ] as const) {
      const doc = await target.collection.findOne({ _id: target.id } as Document);
      console.log(`${name}: ${BSON.calculateObjectSize(doc ?? {})} bytes`);
    }
    // One event's update: its count, a property value and its eight dimension values.
    const update = {
      $inc: {
        'n.Signup': 1,
        'p.Signup.plan.pro': 1,
        'd.Signup.source.google': 1,
        'd.Signup.country.DE': 1,
        'd.Signup.browser.Chrome': 1,
        'd.Signup.os.Linux': 1,
        'd.Signup.device.desktop': 1,
      },
    };
    const times = { hot: [] as number[], apart: [] as number[] };
    for (let i = 0; i < options.updates; i++) {
      for (const key of ['hot', 'apart'] as const) {
        const target = key === 'hot' ? hot : apart;
        const started = performance.now();
        await target.collection.updateOne({ _id: target.id } as Document, update);
        times[key].push(performance.now() - started);
      }
    }
    const p50 = (values: number[]): string =>
      ([...values].sort((a, b) => a - b)[values.length >> 1] as number).toFixed(2);
    console.log(
      `p50 of ${options.updates} event updates: site-day stats document ${p50(times.hot)} ms, separate event document ${p50(times.apart)} ms`,
    );
  } finally {
    await database.db.dropDatabase().catch(() => undefined);
    await database.close();
    await embedded?.stop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
