/**
 * The visit sessions collection stays bounded by the visit timeout, not by the traffic's total (issue 29): a tally
 * server (a child process, embedded engine unless MONGODB_URI) takes live traffic at a steady rate in which new
 * visitors keep arriving (each visitor sends a few pageviews within a minute, then never returns), and once per
 * sample the probe counts the stored sessions and their bytes beside the distinct visitors sent so far. With
 * VISIT_TIMEOUT_MINUTES=1 a session is kept for the timeout plus a 10-minute grace, so the count levels off after
 * about 11 minutes while the visitors sent keep growing. Prints one row per sample; no thresholds.
 *   npm run build && node dist/bench/probes/visitSessionsBound.js [--minutes 20] [--rate 50] [--sample-seconds 60]
 */
import { BSON } from 'mongodb';
import { VISIT_SESSIONS_COLLECTION } from '../../src/store/visitSessions';
import { GraphqlClient } from '../shared/GraphqlClient';
import { parseOptions } from '../shared/options';
import { openServerProbe, runProbe } from '../shared/serverProbe';

const options = parseOptions(process.argv.slice(2), {
  minutes: { kind: 'integer', default: 20 },
  rate: { kind: 'integer', default: 50 },
  'sample-seconds': { kind: 'integer', default: 60 },
});

const SITE = 'bound.example';
const HITS_PER_VISITOR = 3;
const RECORD_HITS = `mutation RecordHits($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;

async function main(): Promise<void> {
  const probe = await openServerProbe('visit_sessions_bound', {
    VISIT_TIMEOUT_MINUTES: '1',
    SWEEP_INTERVAL_MS: '30000',
  });
  const client = new GraphqlClient(probe.server.url, 2);
  const sessions = probe.db.collection(VISIT_SESSIONS_COLLECTION);
  const started = Date.now();
  const end = started + options.minutes * 60_000;
  let sent = 0;
  let nextSample = started + options['sample-seconds'] * 1000;
  process.stdout.write(
    `${probe.description}; ${options.rate} hits/s, each visitor ${HITS_PER_VISITOR} pageviews 20 s apart, ` +
      `VISIT_TIMEOUT_MINUTES=1, SWEEP_INTERVAL_MS=30000\n` +
      '| minute | visitors sent so far | sessions stored | bytes of BSON stored |\n| --- | --- | --- | --- |\n',
  );
  try {
    while (Date.now() < end) {
      const second = Math.floor((Date.now() - started) / 1000);
      // Hit k of second s: visitor (s div 20, k) sends its n-th pageview in second 20n + (s mod 20).
      const hits = Array.from({ length: options.rate }, (_, k) => {
        const round = Math.floor(second / 20) % HITS_PER_VISITOR;
        const visitor = `v-${Math.floor(second / (20 * HITS_PER_VISITOR))}-${second % 20}-${k}`;
        return { site: SITE, page: `/p${(k + round) % 50}`, visitor, at: new Date().toISOString() };
      });
      await client.mustRequest(RECORD_HITS, { hits });
      sent += hits.length;
      if (Date.now() >= nextSample) {
        nextSample += options['sample-seconds'] * 1000;
        const stored = await sessions.find({}).toArray();
        const bytes = stored.reduce((sum, doc) => sum + BSON.calculateObjectSize(doc), 0);
        const minute = ((Date.now() - started) / 60_000).toFixed(1);
        process.stdout.write(`| ${minute} | ${Math.round(sent / HITS_PER_VISITOR)} | ${stored.length} | ${bytes} |\n`);
      }
      const wait = started + (second + 1) * 1000 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  } finally {
    await probe.close();
  }
}

runProbe(main);
