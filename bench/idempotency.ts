/**
 * Section 5: exactly-once ingest (issue 9). The same traffic sent with and without idempotency keys — recordHits
 * in batches of 100 and 1,000, recordHit from 100 concurrent clients — each on emptied collections of one server:
 * hits/s, write commands per hit, and what the exactly-once markers add to each counter document.
 */
import { BSON } from 'mongodb';
import type { Db, Document } from 'mongodb';
import { GraphqlClient } from './GraphqlClient';
import { writeCommands } from './MonitoredClient';
import type { IngestSizes } from './options';
import { runLoad } from './runLoad';
import { serverDelta, snapshotServer } from './serverMetrics';
import type { ServerHandle } from './serverProcess';
import { generateHits } from './traffic';
import type { BenchHit } from './traffic';

export interface IdempotencyRun {
  readonly workload: string;
  readonly keyed: boolean;
  readonly hits: number;
  readonly requests: number;
  readonly errors: number;
  readonly firstError?: string;
  readonly hitsPerSecond: number;
  readonly writeCommandsPerHit: number;
  /** Write commands per flush-sized unit: per request for batches. */
  readonly commands: Record<string, number>;
}

export interface IdempotencyResult {
  readonly runs: IdempotencyRun[];
  /** Mean BSON bytes the `_a` markers add to a counter document, per collection, after the keyed runs. */
  readonly markerBytesPerDocument: Record<string, number>;
  /** Mean BSON bytes of one ledger entry (`ingest.requests`). */
  readonly ledgerBytesPerRequest: number;
}

const RECORD_HIT = `mutation($site: String!, $page: String!, $at: DateTime, $key: String) {
  recordHit(site: $site, page: $page, at: $at, idempotencyKey: $key) { count }
}`;
const RECORD_HITS = `mutation($hits: [HitInput!]!, $key: String) { recordHits(hits: $hits, idempotencyKey: $key) { accepted } }`;
const WORKLOADS = [
  { workload: 'recordHits ×100', batch: 100, concurrency: 1 },
  { workload: 'recordHits ×1,000', batch: 1000, concurrency: 1 },
  { workload: 'recordHit, 100 clients', batch: 1, concurrency: 100 },
] as const;

export async function runIdempotency(deps: {
  readonly db: Db;
  readonly sizes: IngestSizes;
  readonly startServer: (dbName: string) => Promise<ServerHandle>;
  readonly log: (line: string) => void;
}): Promise<IdempotencyResult> {
  const { db, sizes } = deps;
  const hits = generateHits(
    { pages: sizes.pages, zipfS: 1, spanMs: 86_400_000, now: Date.now(), seed: 909 },
    sizes.maxHits,
  ).sort((a, b) => a.at - b.at);
  const server = await deps.startServer(db.databaseName);
  const client = new GraphqlClient(server.url, 128);
  const runs: IdempotencyRun[] = [];
  let markerBytesPerDocument: Record<string, number> = {};
  let ledgerBytesPerRequest = 0;
  try {
    for (const { workload, batch, concurrency } of WORKLOADS) {
      for (const keyed of [false, true]) {
        await reset(db);
        const run = await measure(client, hits, sizes, { workload, batch, concurrency, keyed });
        runs.push(run);
        deps.log(
          `  ${workload}${keyed ? ' (keyed)' : ''}: ${Math.round(run.hitsPerSecond)} hits/s, ${run.writeCommandsPerHit.toFixed(3)} writes/hit`,
        );
      }
      if (batch === 100) {
        markerBytesPerDocument = await markerBytes(db);
        ledgerBytesPerRequest = await meanSize(db.collection('ingest.requests'), (d) => d);
      }
    }
  } finally {
    client.close();
    await server.stop();
  }
  return { runs, markerBytesPerDocument, ledgerBytesPerRequest };
}

async function reset(db: Db): Promise<void> {
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (name.startsWith('stats.') || name === 'ingest.requests') await db.collection(name).deleteMany({});
  }
}

async function measure(
  client: GraphqlClient,
  hits: BenchHit[],
  sizes: IngestSizes,
  run: { workload: string; batch: number; concurrency: number; keyed: boolean },
): Promise<IdempotencyRun> {
  const before = await snapshotServer(client);
  const prefix = `${run.workload}-${Date.now()}`;
  const load = await runLoad({
    concurrency: run.concurrency,
    durationMs: sizes.durationMs,
    maxOperations: Math.max(1, Math.floor(hits.length / run.batch)),
    operation: async (i) => {
      const key = run.keyed ? `${prefix}-${i}` : undefined;
      if (run.batch === 1) {
        const hit = hits[i] as BenchHit;
        await client.mustRequest(RECORD_HIT, {
          site: hit.site,
          page: hit.page,
          at: new Date(hit.at).toISOString(),
          key,
        });
        return 1;
      }
      const slice = hits.slice(i * run.batch, (i + 1) * run.batch);
      await client.mustRequest(RECORD_HITS, {
        hits: slice.map((hit) => ({ site: hit.site, page: hit.page, at: new Date(hit.at).toISOString() })),
        key,
      });
      return slice.length;
    },
  });
  const delta = serverDelta(before, await snapshotServer(client));
  const writes = writeCommands(delta.commands);
  return {
    workload: run.workload,
    keyed: run.keyed,
    hits: load.hits,
    requests: load.operations,
    errors: load.errors,
    ...(load.firstError === undefined ? {} : { firstError: load.firstError }),
    hitsPerSecond: load.hits / (load.elapsedMs / 1000),
    writeCommandsPerHit: writes / Math.max(1, load.hits),
    commands: delta.commands,
  };
}

async function markerBytes(db: Db): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const name of ['stats.daily', 'stats.monthly', 'stats.seconds']) {
    result[name] = await meanSize(
      db.collection(name),
      (d) => {
        const { _a: _markers, ...rest } = d;
        return rest;
      },
      true,
    );
  }
  return result;
}

/** Mean BSON size of the documents, or with `difference` the mean of size(doc) − size(strip(doc)). */
async function meanSize(
  collection: ReturnType<Db['collection']>,
  strip: (d: Document) => Document,
  difference = false,
): Promise<number> {
  let total = 0;
  let n = 0;
  for await (const document of collection.find({})) {
    const size = BSON.calculateObjectSize(document);
    total += difference ? size - BSON.calculateObjectSize(strip(document)) : size;
    n += 1;
  }
  return n === 0 ? 0 : total / n;
}
