/**
 * Generates docs/benchmarks.md from one run's results: every figure with the engine it came from, the
 * ratios between designs measured side by side, what each figure means, and how to rerun on MongoDB.
 */
import type { BenchResults } from '../suite/BenchResults';
import type { IngestRun } from '../suite/ingest';
import type { QueryCell, QueryDesign, QueryKind } from '../suite/queries';
import { QUERY_SPECS } from '../suite/queries';
import { tallyStorage } from '../suite/queryFixtures';
import { fmt, ratio } from '../shared/stats';
import { table } from './markdownTable';
import { renderAudienceIngest } from './renderAudienceIngest';
import { renderAudienceQueries } from './renderAudienceQueries';
import { renderAudienceStorage } from './renderAudienceStorage';
import { renderPeer } from './renderPeer';
import { renderVisitorAccuracy } from './renderVisitorAccuracy';

function engineNote(results: BenchResults): string {
  if (results.engine.name === 'FerretDB') {
    return (
      `**Engine: ${results.engine.description}.** FerretDB 1.x stores each document as JSON in a SQLite table: ` +
      'every update reads, modifies and rewrites the whole document, and most filters (all but `_id`) are not pushed ' +
      'down, so lookups scan the table. Document size and table size therefore dominate every figure below. ' +
      'Real MongoDB (WiredTiger) behaves differently; rerun the same command against it before drawing conclusions ' +
      'about MongoDB (see the end of this page).'
    );
  }
  return (
    `**Engine: ${results.engine.description}.** WiredTiger has no in-place updates either (an update writes a new ` +
    'version of the document into its cache and the journal), but it uses indexes for every filter here. ' +
    "MMAPv1, whose document moves motivated the seeds' pre-allocation, was removed in MongoDB 4.2."
  );
}

function schemaSection(results: BenchResults): string {
  const growth = results.schemaGrowth;
  if (!growth) return "## 1. The seed's experiment\n\nNot run (see failures).\n";
  const e = results.engine.label;
  const byKey = new Map(growth.variants.map((v) => [v.key, v]));
  const grow = byKey.get('growingFlat');
  const flat = byKey.get('preallocatedFlat');
  const nested = byKey.get('preallocatedNested');
  const growNested = byKey.get('growingNested');
  const rows = growth.variants.map((v) => [
    v.label,
    `${fmt(v.firstHourWritesPerSecond)} → ${fmt(v.lastHourWritesPerSecond)}`,
    fmt(v.meanWritesPerSecond),
    ratio(v.meanWritesPerSecond, nested?.meanWritesPerSecond ?? Number.NaN),
    `${fmt(v.finalDocumentBytes)} (${fmt(v.finalMinuteFields)} minute fields)`,
    fmt(v.fullDayDocumentBytes),
    v.collStats ? `${fmt(v.collStats.size)} / ${fmt(v.collStats.storageSize)}` : 'n/a',
  ]);
  const stride = growth.sizes.minuteStride;
  const sampled =
    stride > 1
      ? ` This run writes one hit every ${stride} simulated minutes (quick mode), so a growing document ends the day ` +
        `with ${Math.round(1440 / stride)} of its 1,440 minute fields; the "full day" column gives the size every minute ` +
        'would reach, and `npm run bench` (full mode) writes every minute.'
      : '';
  const slowdown = (v: typeof grow): string =>
    v
      ? `${fmt(v.firstHourWritesPerSecond)} → ${fmt(v.lastHourWritesPerSecond)} writes/s (${ratio(v.lastHourWritesPerSecond, v.firstHourWritesPerSecond)})`
      : 'n/a';
  return `## 1. The seed's experiment, reproduced (${e})

![Writes per second through the simulated day](benchmarks/schema-growth.svg)

Seed 004 ran \`record_hit\` — one upsert per hit, incrementing \`daily\`, \`hourly.HH\` and a minute counter of a
per-day document — through simulated days and plotted writes/s against the time of day. We do the same with direct
driver calls, one update in flight, ${growth.sizes.days} simulated day(s), ${growth.sizes.measures} document(s) per day,
${growth.sizes.hitsPerMinute} hit(s) per written minute. The four schemas run interleaved hour by hour (hour 0 of each, then
hour 1 of each, …), so background load on the machine affects them alike. Pre-allocated variants find today's documents
already zero-filled (as yesterday's pre-allocation leaves them) and pre-allocate tomorrow's once, at a random minute of
the day (timed, inside the figures).${sampled} Filters are \`{_id}\` with \`$setOnInsert\` of the metadata (the seed
matched the whole metadata sub-document; the effect is the same).

${table(
  [
    `schema (${e})`,
    'writes/s, first → last hour',
    'mean writes/s',
    'vs nested pre-allocated',
    'final document, BSON bytes',
    'full-day document, BSON bytes',
    'collStats size / storageSize',
  ],
  rows,
)}

What holds on ${e}:
- Growing flat minutes: ${slowdown(grow)}. ${results.engine.name === 'FerretDB' ? "The slowdown is real here, but its cause is not the seed's: FerretDB rewrites the whole JSON document on every update, so each write costs in proportion to the document's current size, and a growing document gets slower as it grows." : 'WiredTiger rewrites the document version on update; cost grows with document size, not with moves.'}
- Pre-allocated documents are full size from the first write: ${flat ? `flat ${fmt(flat.meanWritesPerSecond)} writes/s` : ''}${nested ? `, nested ${fmt(nested.meanWritesPerSecond)} writes/s` : ''}, flat through the day — level, as in the seed, but ${results.engine.name === 'FerretDB' ? 'at the speed of the largest document all day long: on this engine pre-allocation makes every write as slow as the end-of-day write of a growing document.' : 'paying for the full document on every write.'}
- Nesting by hour versus flat, both pre-allocated: ${ratio(nested?.meanWritesPerSecond ?? Number.NaN, flat?.meanWritesPerSecond ?? Number.NaN)}. ${results.engine.name === 'FerretDB' ? `On FerretDB this is not the seed's O(n) field scan inside BSON: FerretDB parses and rewrites the whole JSON document whichever field changes, so the difference follows document size (nested ${fmt(nested?.fullDayDocumentBytes)} bytes versus flat ${fmt(flat?.fullDayDocumentBytes)}, from shorter keys) and JSON handling.` : "The seed's O(n) field scan is still in MongoDB's update path, but small next to writing a new document version; compare the two lines."}
- Nested without pre-allocation: ${slowdown(growNested)} — it grows like the flat one.

What differs on MongoDB: MMAPv1's document moves, the seeds' reason for pre-allocation, no longer exist (MMAPv1 was
removed in MongoDB 4.2). WiredTiger never updates in place: each update writes a new version of the whole document
into its cache and journal, so a pre-allocated 1,440-minute document makes every update pay for ~${fmt(nested?.fullDayDocumentBytes)} bytes
from midnight on, while a sparse one starts small. MongoDB's own newer guidance says pre-allocation is likely unnecessary on
WiredTiger. Rerun this section against MongoDB (command at the end) to see its curve.
`;
}

function ingestSection(results: BenchResults): string {
  const ingest = results.ingest;
  if (!ingest) return '## 2. Ingest\n\nNot run (see failures).\n';
  const e = results.engine.label;
  const primaryRuns = ingest.runs.filter((r) => r.target === 'primary');
  const runs = new Map(primaryRuns.map((r) => [r.key, r]));
  const seed = runs.get('seed');
  const rows = primaryRuns.map((r: IngestRun) => [
    r.label,
    r.path,
    fmt(r.hitsPerSecond),
    ratio(r.hitsPerSecond, seed?.hitsPerSecond ?? Number.NaN),
    fmt(r.writeCommandsPerHit),
    fmt(r.writeCommandsPerHit * 1000),
    `${fmt(r.requestLatencyMs.p50)} / ${fmt(r.requestLatencyMs.p99)}`,
    r.serverCpuUsPerHit === undefined ? '—' : fmt(r.serverCpuUsPerHit),
    r.databaseCpuUsPerHit === undefined ? 'n/a' : fmt(r.databaseCpuUsPerHit),
    fmt(r.clientCpuUsPerHit),
    `${fmt(r.hits)}${r.errors ? ` (${r.errors} errors)` : ''}`,
  ]);
  const comparison = ingest.preallocateComparison.map(({ workload, off, on }) => {
    const a = runs.get(off);
    const b = runs.get(on);
    return [
      workload,
      fmt(a?.hitsPerSecond),
      fmt(b?.hitsPerSecond),
      ratio(b?.hitsPerSecond ?? Number.NaN, a?.hitsPerSecond ?? Number.NaN),
    ];
  });
  const prealloc = ingest.preallocation;
  const failures = ingest.runs
    .filter((r) => r.errors > 0)
    .map((r) => `- ${r.label}: ${r.errors} failed requests, first: \`${r.firstError}\``);
  return `## 2. Ingest (${e})

![Ingest throughput](benchmarks/ingest.svg)

The same traffic for every variant: ${ingest.pages} pages with Zipf popularity (page k gets 1/k of the top page's
hits), timestamps spread uniformly over the last 24 hours (two UTC days) and sent in time order, so a run replays the
day compressed (concurrent requests carry nearby timestamps, as on a live site). Each variant runs for at most
${fmt(ingest.sizes.durationMs / 1000)} s or ${fmt(ingest.sizes.maxHits)} hits, whichever comes first. The tally server is a separate
child process (\`node dist/src/main.js\`, loopback only); write commands come from its \`/metrics\`
(\`tally_mongodb_commands_total\`: insert, update, delete) and the direct-driver variants count theirs with command
monitoring. A bulkWrite counts as one command per collection however many documents it updates. CPU per hit is
each process's own counter divided by the hits it acknowledged: the tally server's \`tally_process_cpu_seconds_total\`
(its \`process.cpuUsage()\`, from \`/metrics\`), the database server's utime + stime from \`/proc/<pid>/stat\` (only for a
database the benchmark started, on Linux; 10 ms resolution), and the load generator's own \`process.cpuUsage()\`. tally writes the
second-level collection too (SECONDS_ENABLED defaults to on), so its writes per flush are up to three, not two.
"recordHit, 10 clients" runs right after "recordHits ×100" on the same documents, with either PREALLOCATE setting.

${table(
  [
    `variant (${e})`,
    'path',
    'hits/s',
    'vs seed log_hit',
    'write commands/hit',
    'per 1,000 hits',
    'request p50 / p99 ms',
    'tally server CPU µs/hit',
    'database CPU µs/hit',
    'load-generator CPU µs/hit',
    'hits',
  ],
  rows,
)}
${engineComparison(results)}
${failures.length ? `\nFailed requests:\n${failures.join('\n')}\n` : ''}
**PREALLOCATE=false versus true** (${e}), same workloads, same traffic. With PREALLOCATE=true the benchmark first
creates the zero-filled documents every page of the traffic needs (what the previous day's pre-allocation leaves${prealloc ? `: ${prealloc.pageDays} page-days in ${fmt(prealloc.elapsedMs)} ms, ${prealloc.writeCommands} write commands` : ''}), then
ingests into full-size documents; with false the same hits create sparse documents that grow.

${table([`workload (${e})`, 'hits/s, PREALLOCATE=false', 'hits/s, PREALLOCATE=true', 'true / false'], comparison)}

What to conclude: group commit turns many concurrent single-hit requests into a few bulk writes, so write commands
per hit fall as concurrency rises, and batches of 100 or 1,000 cost a handful of commands each — compare the seed's two
round trips per hit and the raw-event design's one. ${results.engine.name === 'FerretDB' ? 'On FerretDB every updated document is rewritten whole and one write runs at a time, so throughput is bounded by bytes rewritten per second: pre-allocated (large) documents are slower here, and the PREALLOCATE ratio above says by how much.' : 'On MongoDB compare the PREALLOCATE ratio above: WiredTiger rewrites document versions, so full-size documents cost more bytes per update.'} The raw-event design
ingests fastest per hit because it only appends, and pays at query time (section 3).
`;
}

/** The ingest rows of the second engine beside the first, workload by workload, measured in the same run. */
function engineComparison(results: BenchResults): string {
  const ingest = results.ingest;
  const other = ingest?.engines.comparison;
  if (!ingest || other === undefined) return '';
  const a = results.engine.label;
  const comparisonRuns = new Map(ingest.runs.filter((r) => r.target === 'comparison').map((r) => [r.key, r]));
  const rows = ingest.runs
    .filter((r) => r.target === 'primary')
    .map((p) => {
      const c = comparisonRuns.get(p.key);
      const cpu = (r: IngestRun | undefined, field: 'serverCpuUsPerHit' | 'databaseCpuUsPerHit'): string =>
        r?.[field] === undefined ? '—' : fmt(r[field]);
      return [
        p.label,
        `${fmt(p.hitsPerSecond)} / ${fmt(c?.hitsPerSecond)}`,
        ratio(p.hitsPerSecond, c?.hitsPerSecond ?? Number.NaN),
        `${fmt(p.writeCommandsPerHit)} / ${fmt(c?.writeCommandsPerHit)}`,
        `${cpu(p, 'serverCpuUsPerHit')} / ${cpu(c, 'serverCpuUsPerHit')}`,
        `${cpu(p, 'databaseCpuUsPerHit')} / ${cpu(c, 'databaseCpuUsPerHit')}`,
        ratio(c?.databaseCpuUsPerHit ?? Number.NaN, p.databaseCpuUsPerHit ?? Number.NaN),
      ];
    });
  return `
**${a} versus ${other}, side by side in this run.** Each workload ran on one engine and then on the other before the
next workload started (same traffic, same machine load, a tally server per engine); figures are "${a} / ${other}".

${table(
  [
    'workload',
    'hits/s',
    `${a} / ${other} hits/s`,
    'write commands/hit',
    'tally server CPU µs/hit',
    'database CPU µs/hit',
    `database CPU/hit, ${other} / ${a}`,
  ],
  rows,
)}
`;
}

function querySection(results: BenchResults): string {
  const queries = results.queries;
  if (!queries) return '## 3. Queries\n\nNot run (see failures).\n';
  const e = results.engine.label;
  const find = (kind: QueryKind, design: QueryDesign, size: number): QueryCell | undefined =>
    queries.cells.find((c) => c.kind === kind && c.design === design && c.dataSize === size);
  const sections = QUERY_SPECS.map((spec) => {
    const rows = queries.sizes.dataSizes.flatMap((size) => {
      const gql = find(spec.kind, 'tally GraphQL', size);
      const store = find(spec.kind, 'tally store', size);
      const raw = find(spec.kind, 'raw events', size);
      const lat = (c: QueryCell | undefined): string =>
        c ? `${fmt(c.latencyMs.p50)} / ${fmt(c.latencyMs.p95)} / ${fmt(c.latencyMs.p99)} (n=${c.latencyMs.n})` : 'n/a';
      return [
        [
          fmt(size),
          'tally, GraphQL over HTTP',
          lat(gql),
          '—',
          '—',
          `${fmt(gql?.httpBytes)} (HTTP body)`,
          fmt(gql?.serverCpuMsPerQuery),
          gql?.agreesWithRaw === false ? 'no' : 'yes',
        ],
        [
          fmt(size),
          'tally store read, driver',
          lat(store),
          fmt(store?.documentsExamined),
          fmt(store?.documentsReturned),
          fmt(store?.bytesReturned),
          '—',
          '',
        ],
        [
          fmt(size),
          `raw events, ${queries.rawStrategy}`,
          lat(raw),
          fmt(raw?.documentsExamined),
          fmt(raw?.documentsReturned),
          fmt(raw?.bytesReturned),
          '—',
          '',
        ],
      ];
    });
    const largest = largestSize(results);
    const g = find(spec.kind, 'tally GraphQL', largest);
    const st = find(spec.kind, 'tally store', largest);
    const r = find(spec.kind, 'raw events', largest);
    return `### ${spec.label} (${e})

![${spec.label}](benchmarks/query-${spec.kind}.svg)

${table([`hits stored (${e})`, 'design', 'latency ms p50 / p95 / p99', 'documents examined', 'documents returned', 'bytes returned', 'server CPU ms/query', 'same totals'], rows)}

At ${fmt(largest)} hits (${e}), raw events / tally: p50 ${ratio(r?.latencyMs.p50 ?? Number.NaN, g?.latencyMs.p50 ?? Number.NaN)},
p95 ${ratio(r?.latencyMs.p95 ?? Number.NaN, g?.latencyMs.p95 ?? Number.NaN)} (tally over GraphQL and HTTP); documents examined
${ratio(r?.documentsExamined ?? Number.NaN, st?.documentsExamined ?? Number.NaN)}, documents returned ${ratio(r?.documentsReturned ?? Number.NaN, st?.documentsReturned ?? Number.NaN)}, bytes returned ${ratio(r?.bytesReturned ?? Number.NaN, st?.bytesReturned ?? Number.NaN)}.
`;
  });
  const fallback =
    queries.rawStrategy === 'client-side bucketing'
      ? `**The aggregation pipeline does not work on ${e}**: ${queries.rawStrategyReason}. The raw-event figures therefore
fetch the matching events (\`find\` with the same filter, projecting \`page\` and \`at\`) and bucket them in the client —
what an application on this engine would have to do. Documents and bytes returned then count every matching event;
on MongoDB the pipeline returns one row per non-empty bucket instead, and the same command measures that.`
      : `The raw-event figures use a server-side pipeline: \`$match\` on site, page and time, then \`$group\` by page and
bucket (\`$toLong\` of the timestamp minus its remainder modulo the bucket size), as Ackee and Umami do. Probe: ${queries.rawStrategyReason}.`;
  const sets = queries.dataSets.map((d) => [
    fmt(d.dataSize),
    fmt(d.dailyDocuments),
    fmt(d.monthlyDocuments),
    fmt(d.rawLoadMs / 1000),
    fmt(d.counterLoadMs / 1000),
  ]);
  return `## 3. Queries (${e})

The same hits go into both designs: raw events (\`{site, page, at}\`, indexed on \`{site, page, at}\`) and tally's daily and
monthly documents (built with the ingest path's own \`CounterBatch\` and inserted with insertMany, so loading is fast; ingest
speed is section 2). Loading streams: hits are generated, counted and inserted ${'10,000'} at a time with two insertMany
commands in flight, so memory does not grow with the hits stored; each size adds to the previous one. ${queries.sizes.pages} pages,
Zipf popularity, hits spread uniformly over the last 90 days; every query asks for the most popular page(s). Windows are
aligned to whole buckets so both designs count the same instants, and the "same totals" column checks that they agree. Each
cell runs ${queries.sizes.minIterations}–${queries.sizes.maxIterations} times (stopping after ${fmt(queries.sizes.budgetMs / 1000)} s); with few samples p95
and p99 are close to the maximum, so read them with n. "tally store read" is the read the server's DataLoader makes, through
tally's own \`CounterStore\` with the engine's capabilities: it gives the documents and bytes tally reads from the database
(command monitoring: documents in the replies, BSON bytes of the replies). "Documents examined" explains, once per cell and
outside the timings, every find or aggregate one request sent: MongoDB's \`executionStats.totalDocsExamined\`; on FerretDB,
whose explain gives SQLite's plan instead, a \`SCAN\` counts every row of the table (FerretDB decodes each one), an
index \`SEARCH\` (only ever \`_id\`) one row, and on tally's build a read by a list of ids one row per id (its \`_id IN (…)\`
pushdown is not reflected in explain). GraphQL latency includes HTTP, parsing and
dense-series filling; its server CPU comes from \`tally_process_cpu_seconds_total\`.

${fallback}

${table([`hits stored (${e})`, 'daily documents', 'monthly documents', 'raw-event load s', 'tally documents load s'], sets)}

![Documents read per query](benchmarks/query-documents.svg)

![Bytes read per query](benchmarks/query-bytes.svg)

${sections.join('\n')}
What to conclude: tally's reads are bounded by the chart, not by the traffic — a one-hour minute chart reads one daily
document's one hour, a 7-day hourly chart 7–8 documents' \`hourly\`, a 90-day daily chart 3–4 monthly documents, and a
20-series dashboard 20 times that. The raw-event design reads (or groups) every matching event, so its cost grows with the
hits stored. ${results.engine.name === 'FerretDB' ? `On FerretDB 1.x only an exact \`_id\` filter reaches SQLite: the raw-event find decodes every stored event whatever the window, so its latency follows the table, not the chart. tally reads up to 64 documents by exact \`_id\` (${results.engine.build === 'stock' ? 'on this stock build each such lookup still scans the small counter table, because its `_id` expression does not match the index' : 'through the `_id` index on the patched build'}); the 20-series dashboard needs 160 daily documents and scans the daily table, whose size follows page-days, not hits. On MongoDB every one of these reads is an index range scan: rerun there for the comparison that matters to users.` : ''}
`;
}

function storageSection(results: BenchResults): string {
  const storage = results.storage;
  if (!storage) return '## 4. Storage\n\nNot run (see failures).\n';
  const rows = storage.rows.map((r) => [
    fmt(r.hitsPerPageDay),
    fmt(r.sparseBytes),
    fmt(r.preallocatedBytes),
    fmt(r.rawEventBytes),
    ratio(r.rawEventBytes, r.sparseBytes),
  ]);
  const atSizes = storageAtSizes(results);
  const m = storage.measured;
  const measured = m
    ? `Measured on ${results.engine.label} (collStats of the query data set at ${fmt(m.hits)} hits, ${fmt(m.pageDays)} page-days${results.engine.name === 'FerretDB' ? '; FerretDB reports SQLite table sizes of its JSON, not BSON' : ''}):
pre-aggregated ${fmt(m.preAggregatedBytesPerPageDay)} bytes per page-day (+ ${fmt(m.preAggregatedIndexBytesPerPageDay)} index),
raw events ${fmt(m.rawBytesPerPageDay)} bytes per page-day (+ ${fmt(m.rawIndexBytesPerPageDay)} index).`
    : '';
  return `## 4. Storage: bytes per page-day

![Bytes per page-day](benchmarks/storage.svg)

BSON sizes of the documents tally's own code builds (daily document plus 1/30 of a 30-day monthly document), for a page
with the given number of hits on every day, at random minutes; raw events are ${storage.rawEventDocumentBytes} bytes each
(\`_id\`, site, page, at — Umami and Ackee store more fields per event, so this is a lower bound). These sizes do not
depend on the engine; what the engine does with them (compression on WiredTiger, JSON in SQLite on FerretDB) does.

| hits per page-day | sparse documents, bytes | pre-allocated documents, bytes | raw events, bytes | raw / sparse |
| --- | --- | --- | --- | --- |
${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}

${measured}
${atSizes}
What to conclude: a sparse document costs about what the traffic fills in (at most the pre-allocated size, reached at about
1,440 distinct minutes a day); pre-allocation costs the full ~${fmt(storage.rows[0]?.preallocatedBytes)} bytes per page-day even
for a page hit once. Raw events cost ~${storage.rawEventDocumentBytes} bytes per hit without bound: they pass sparse documents
at a few hits per page-day and pre-allocated ones at about ${fmt((storage.rows[0]?.preallocatedBytes ?? Number.NaN) / storage.rawEventDocumentBytes)} hits per page-day.
`;
}

function largestSize(results: BenchResults): number {
  const sizes = results.queries?.sizes.dataSizes ?? [];
  return sizes[sizes.length - 1] ?? Number.NaN;
}

/** collStats of both designs at every data size of section 3, with the ratios. */
function storageAtSizes(results: BenchResults): string {
  const queries = results.queries;
  if (!queries || queries.dataSets.length === 0) return '';
  const e = results.engine.label;
  const rows = queries.dataSets.map((d) => {
    const raw = d.storage.raw;
    const tally = tallyStorage(d);
    return [
      fmt(d.dataSize),
      fmt(raw?.size),
      fmt(raw?.totalIndexSize),
      fmt(tally?.size),
      fmt(tally?.index),
      ratio(raw?.size ?? Number.NaN, tally?.size ?? Number.NaN),
      ratio(raw?.totalIndexSize ?? Number.NaN, tally?.index ?? Number.NaN),
    ];
  });
  return `
### Storage at each data size (${e})

![Storage by hits stored](benchmarks/storage-scale.svg)

collStats of section 3's collections after each size was loaded: raw events (one document per hit, \`_id\` and
\`{site, page, at}\` indexes) against tally's \`stats.daily\` + \`stats.monthly\` (\`_id\` and \`{site, page, date}\` indexes each).
"data" is collStats \`size\`, "indexes" \`totalIndexSize\`${results.engine.name === 'FerretDB' ? '; FerretDB reports the SQLite pages of its JSON rows and expression indexes' : ''}.

${table([`hits stored (${e})`, 'raw events: data bytes', 'raw events: index bytes', 'tally: data bytes', 'tally: index bytes', 'raw / tally data', 'raw / tally indexes'], rows)}
`;
}

/** The issue's headline: every raw-events / tally ratio at the largest data size, in one table. */
function ratiosAtLargest(results: BenchResults): string {
  const queries = results.queries;
  if (!queries) return '';
  const e = results.engine.label;
  const largest = largestSize(results);
  const find = (kind: QueryKind, design: QueryDesign): QueryCell | undefined =>
    queries.cells.find((c) => c.kind === kind && c.design === design && c.dataSize === largest);
  const rows: string[][] = [];
  for (const spec of QUERY_SPECS) {
    const raw = find(spec.kind, 'raw events');
    const gql = find(spec.kind, 'tally GraphQL');
    const store = find(spec.kind, 'tally store');
    const row = (what: string, a: number | undefined, b: number | undefined, unit: string): string[] => [
      `${spec.label}: ${what}`,
      `${fmt(a)}${unit}`,
      `${fmt(b)}${unit}`,
      ratio(a ?? Number.NaN, b ?? Number.NaN),
    ];
    rows.push(row('latency p50', raw?.latencyMs.p50, gql?.latencyMs.p50, ' ms'));
    rows.push(row('latency p95', raw?.latencyMs.p95, gql?.latencyMs.p95, ' ms'));
    rows.push(row('documents examined', raw?.documentsExamined, store?.documentsExamined, ''));
    rows.push(row('documents returned', raw?.documentsReturned, store?.documentsReturned, ''));
    rows.push(row('bytes returned', raw?.bytesReturned, store?.bytesReturned, ''));
  }
  const set = queries.dataSets.find((d) => d.dataSize === largest);
  if (set) {
    const tally = tallyStorage(set);
    rows.push([
      'storage: data',
      fmt(set.storage.raw?.size),
      fmt(tally?.size),
      ratio(set.storage.raw?.size ?? Number.NaN, tally?.size ?? Number.NaN),
    ]);
    rows.push([
      'storage: indexes',
      fmt(set.storage.raw?.totalIndexSize),
      fmt(tally?.index),
      ratio(set.storage.raw?.totalIndexSize ?? Number.NaN, tally?.index ?? Number.NaN),
    ]);
  }
  const failed = queries.hitsAtLargest < largest ? ` (only ${fmt(queries.hitsAtLargest)} were loaded)` : '';
  return `## At ${fmt(largest)} hits: raw events against tally (${e})

Every ratio of sections 3 and 4 at the largest data size of this run${failed}, measured side by side on the same hits. Latency
is tally as a client sees it (GraphQL over HTTP) against the raw-event query over the driver; documents examined are what
the database read to answer (explain), documents and bytes returned what it sent back; storage is collStats. "raw / tally" above 1× means tally is cheaper.

${table([`figure at ${fmt(largest)} hits (${e})`, 'raw events', 'tally', 'raw / tally'], rows)}
`;
}

function costSection(results: BenchResults): string {
  const e = results.engine.label;
  const ingestRows = (results.ingest?.runs ?? [])
    .filter((r) => r.serverCpuUsPerHit !== undefined && r.target === 'primary')
    .map((r) => [r.label, fmt(r.serverCpuUsPerHit), fmt(r.databaseCpuUsPerHit), fmt(r.clientCpuUsPerHit)]);
  const largest = results.queries?.sizes.dataSizes[results.queries.sizes.dataSizes.length - 1];
  const queryRows = QUERY_SPECS.map((spec) => {
    const cell = results.queries?.cells.find(
      (c) => c.kind === spec.kind && c.design === 'tally GraphQL' && c.dataSize === largest,
    );
    return [spec.label, fmt(cell?.serverCpuMsPerQuery)];
  });
  return `## 5. Server cost: CPU of the tally process (${e})

The server's own CPU time (user + system, \`process.cpuUsage()\` as exported by prom-client's
\`tally_process_cpu_seconds_total\`), read from \`/metrics\` before and after each run, so tally's overhead is visible apart
from the database's. It includes HTTP, GraphQL parsing and validation, group commit and the driver's BSON work; it does
not include the database server's CPU. The load generator's CPU is reported alongside (it shares the machine).

${table([`ingest variant (${e})`, 'tally server CPU µs/hit', 'database CPU µs/hit', 'load-generator CPU µs/hit'], ingestRows)}

${table([`query at ${fmt(largest)} hits (${e})`, 'server CPU ms per query'], queryRows)}
`;
}

function idempotencySection(results: BenchResults): string {
  const result = results.idempotency;
  if (!result) return '';
  const e = results.engine.label;
  const rows: string[][] = [];
  for (const plain of result.runs.filter((r) => !r.keyed)) {
    const keyed = result.runs.find((r) => r.keyed && r.workload === plain.workload);
    rows.push([
      plain.workload,
      fmt(plain.hitsPerSecond),
      fmt(keyed?.hitsPerSecond),
      fmt((keyed?.hitsPerSecond ?? Number.NaN) / plain.hitsPerSecond),
      `${plain.writeCommandsPerHit.toFixed(3)} / ${keyed?.writeCommandsPerHit.toFixed(3) ?? '–'}`,
      `${fmt(plain.errors)} / ${fmt(keyed?.errors)}`,
    ]);
  }
  const markers = Object.entries(result.markerBytesPerDocument).map(([name, bytes]) => `\`${name}\` ${fmt(bytes)}`);
  return `## 6. Exactly-once ingest: idempotency keys (${e})

The same traffic with and without an \`idempotencyKey\` per request (a new key each), each run on emptied collections of
one server. A flush holding keyed requests costs one more write command (the ledger insert of all its keys) and adds a
lane marker to each document it touches; a flush without keyed requests is unchanged.

${table([`workload (${e})`, 'hits/s unkeyed', 'hits/s keyed', 'keyed ÷ unkeyed', 'write commands per hit (unkeyed / keyed)', 'errors'], rows)}

Bytes the markers add per counter document after the keyed batches of 100 (mean BSON size with \`_a\` minus without):
${markers.join(', ')}. One ledger entry (\`ingest.requests\`) is ${fmt(result.ledgerBytesPerRequest)} bytes, kept for the
idempotency window.
`;
}

function issueNumbers(results: BenchResults): string {
  const e = results.engine.label;
  const runs = new Map((results.ingest?.runs ?? []).filter((r) => r.target === 'primary').map((r) => [r.key, r]));
  const per1000 = (key: string): string => fmt((runs.get(key)?.writeCommandsPerHit ?? Number.NaN) * 1000);
  const largest = results.queries?.sizes.dataSizes[results.queries.sizes.dataSizes.length - 1];
  const cell = (kind: QueryKind): QueryCell | undefined =>
    results.queries?.cells.find((c) => c.kind === kind && c.design === 'tally store' && c.dataSize === largest);
  const rows = [
    ['write commands per 1,000 hits, recordHits ×1,000', per1000('batch1000')],
    ['write commands per 1,000 hits, recordHits ×100', per1000('batch100')],
    ['write commands per 1,000 hits, recordHit with 100 concurrent clients', per1000('single100')],
    ...(['lastHourByMinute', 'last7DaysByHour', 'last90DaysByDay', 'dashboard20'] as const).map((kind) => {
      const c = cell(kind);
      const label = QUERY_SPECS.find((s) => s.kind === kind)?.label ?? kind;
      return [
        `${label}: documents examined / returned / bytes returned`,
        `${fmt(c?.documentsExamined)} / ${fmt(c?.documentsReturned)} / ${fmt(c?.bytesReturned)}`,
      ];
    }),
  ];
  return `## The numbers issue 3 asks for (${e})

${table([`figure (${e})`, 'value'], rows)}
`;
}

export function renderReport(results: BenchResults): string {
  const failures = results.failures.length
    ? `\n**Sections that failed in this run:**\n${results.failures.map((f) => `- ${f.section}: \`${f.error}\``).join('\n')}\n`
    : '';
  return `# Benchmarks

Generated by \`${results.command}\` on ${results.startedAt.slice(0, 16).replace('T', ' ')} UTC (${results.mode} mode, ${fmt(results.durationMs / 1000)} s).
Do not edit by hand: rerun the command. Machine-readable results (JSON and CSV, engine on every row) are written to
\`bench-results/<timestamp>/\`.

- Engine: **${results.engine.description}**, ${results.engine.embedded ? 'started by the benchmark (MONGODB_URI unset)' : 'at MONGODB_URI'}.
- Machine: ${results.machine.cpus} × ${results.machine.cpuModel}, Node ${results.machine.node}, ${results.machine.platform}. Other
  processes may share it; every comparison below is measured in the same run, side by side, and given as a ratio.
- tally server: ${results.server === 'child' ? 'a child process (`node dist/src/main.js`) on a loopback port; the benchmark process is the load generator' : 'in-process (smoke mode only; CPU figures then include the load generator)'}.

${engineNote(results)}
${failures}
${ratiosAtLargest(results)}
${schemaSection(results)}
${ingestSection(results)}
${querySection(results)}
${storageSection(results)}
${costSection(results)}
${idempotencySection(results)}
${renderAudienceIngest(results)}
${renderAudienceStorage(results)}
${renderAudienceQueries(results)}
${renderVisitorAccuracy(results)}
${renderPeer(results)}
${issueNumbers(results)}
## Running it yourself

\`\`\`sh
npm run bench -- --quick                      # up to 100,000 stored hits, under 10 minutes on 2 cores (embedded server)
npm run bench                                 # full mode: up to 1,000,000 stored hits, under an hour
npm run bench -- --quick --compare-stock      # also run the ingest section on the stock FerretDB build, side by side
npm run bench -- --quick --ferretdb-binary PATH   # the embedded database is this FerretDB executable
npm run bench -- --quick --only visitor       # only sections 7–10 (visitors and dimensions)
npm run bench -- --quick --only peer         # only section 11: beside GoatCounter (10,000 hits; --peer-hits N)
MONGODB_URI=mongodb://127.0.0.1:27017 npm run bench -- --quick   # the same, against real MongoDB
\`\`\`

With \`MONGODB_URI\` set the benchmark uses that server (each run creates and drops databases named \`bench_<timestamp>_*\`);
otherwise it starts the embedded one (mongod if available, else FerretDB: the patched build, or the executable given with
\`--ferretdb-binary\` or \`BENCH_FERRETDB_BINARY\`). The FerretDB build (stock or patched) is told apart by its query plans,
not by its path. \`--compare-stock\` builds the stock release once (\`node scripts/ensure-ferretdb.js --stock\`, needs Go)
and \`--compare-ferretdb-binary PATH\` takes any other executable; either runs every ingest workload on both engines, one
after the other. Data sizes are the same on every engine; FerretDB gets fewer repetitions per cell (see \`bench/suite/sizes.ts\`).
Charts are SVGs written next to this file in \`docs/benchmarks/\`. Benchmarks are not tests: nothing here has a pass/fail
threshold.
`;
}
