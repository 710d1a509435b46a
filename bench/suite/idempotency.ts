/**
 * Section 5: exactly-once ingest (issue 9). The same traffic sent with and without idempotency keys — recordHits
 * in batches of 100 and 1,000, recordHit from 100 concurrent clients — each on emptied collections of one server:
 * hits/s, write commands per hit, and what the exactly-once markers add to each counter document.
 */
import { BSON } from 'mongodb';
import type { Db, Document } from 'mongodb';
import { GraphqlClient } from '../shared/GraphqlClient';
import { writeCommands } from '../shared/MonitoredClient';
import type { IngestSizes } from './sizes';
import { runLoad } from '../shared/runLoad';
import { serverDelta, snapshotServer } from '../shared/serverMetrics';
import type { ServerHandle } from '../shared/serverProcess';
import { generateHits } from '../shared/traffic';
import type { BenchHit } from '../shared/traffic';

export interface IdempotencyRun {
  readonly workload: string;
  readonly keyed: boolean;
  readonly hits: number;
  readonly requests: number;
  readonly errors: number;
  readonly firstError?: string;
  readonly elapsedMs: number;
  readonly hitsPerSecond: number;
  readonly writeCommandsPerHit: number;
  /** Commands the server sent, by name (from its /metrics). */
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
const ROUNDS = 4;
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
      // Alternating short rounds, summed: on a shared machine one long run per variant mostly measures the neighbours.
      const rounds: Record<'plain' | 'keyed', IdempotencyRun[]> = { plain: [], keyed: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const keyed of round % 2 === 0 ? [false, true] : [true, false]) {
          await reset(db);
          const run = await measure(client, hits, sizes, { workload, batch, concurrency, keyed, round });
          rounds[keyed ? 'keyed' : 'plain'].push(run);
          if (keyed && batch === 100) {
            markerBytesPerDocument = await markerBytes(db);
            ledgerBytesPerRequest = await meanSize(db.collection('ingest.requests'), (d) => d);
          }
        }
      }
      for (const keyed of [false, true]) {
        const run = combine(rounds[keyed ? 'keyed' : 'plain']);
        runs.push(run);
        deps.log(
          `  ${workload}${keyed ? ' (keyed)' : ''}: ${Math.round(run.hitsPerSecond)} hits/s, ${run.writeCommandsPerHit.toFixed(3)} writes/hit`,
        );
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
  run: { workload: string; batch: number; concurrency: number; keyed: boolean; round: number },
): Promise<IdempotencyRun> {
  const before = await snapshotServer(client);
  const prefix = `${run.workload}-${run.round}-${Date.now()}`;
  const load = await runLoad({
    concurrency: run.concurrency,
    durationMs: sizes.durationMs / 2,
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
    elapsedMs: load.elapsedMs,
    hitsPerSecond: load.hits / (load.elapsedMs / 1000),
    writeCommandsPerHit: writes / Math.max(1, load.hits),
    commands: delta.commands,
  };
}

/** The rounds of one variant as one run: total hits over total time, total commands over total hits. */
function combine(rounds: readonly IdempotencyRun[]): IdempotencyRun {
  const sum = (f: (r: IdempotencyRun) => number) => rounds.reduce((total, r) => total + f(r), 0);
  const commands: Record<string, number> = {};
  for (const r of rounds)
    for (const [name, n] of Object.entries(r.commands)) commands[name] = (commands[name] ?? 0) + n;
  const hits = sum((r) => r.hits);
  const first = rounds[0] as IdempotencyRun;
  const firstError = rounds.find((r) => r.firstError !== undefined)?.firstError;
  return {
    workload: first.workload,
    keyed: first.keyed,
    hits,
    requests: sum((r) => r.requests),
    errors: sum((r) => r.errors),
    ...(firstError === undefined ? {} : { firstError }),
    elapsedMs: sum((r) => r.elapsedMs),
    hitsPerSecond: hits / (sum((r) => r.elapsedMs) / 1000),
    writeCommandsPerHit: writeCommands(commands) / Math.max(1, hits),
    commands,
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
