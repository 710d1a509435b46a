/** Writes results.json and a long-format results.csv (one figure per row, engine on every row). */
import fs from 'node:fs';
import path from 'node:path';
import type { BenchResults } from '../suite/BenchResults';

/** A figure; the engine column defaults to the run's engine (ingest rows of a comparison name their own). */
type Row = [
  section: string,
  variant: string,
  metric: string,
  value: number | string | undefined,
  unit: string,
  engine?: string,
];

export function csvRows(results: BenchResults): Row[] {
  const rows: Row[] = [];
  for (const v of results.schemaGrowth?.variants ?? []) {
    for (const p of v.timeline)
      rows.push(['schema-growth', v.key, `writes_per_s@hour${p.simulatedHour}`, p.writesPerSecond, 'writes/s']);
    rows.push(['schema-growth', v.key, 'mean_writes_per_s', v.meanWritesPerSecond, 'writes/s']);
    rows.push(['schema-growth', v.key, 'final_document_bson', v.finalDocumentBytes, 'bytes']);
    rows.push(['schema-growth', v.key, 'full_day_document_bson', v.fullDayDocumentBytes, 'bytes']);
    rows.push(['schema-growth', v.key, 'collstats_size', v.collStats?.size, 'bytes']);
  }
  for (const r of results.ingest?.runs ?? []) {
    const push = (metric: string, value: number | undefined, unit: string): void => {
      rows.push(['ingest', r.key, metric, value, unit, r.engine]);
    };
    push('hits_per_s', r.hitsPerSecond, 'hits/s');
    push('write_commands_per_hit', r.writeCommandsPerHit, 'commands/hit');
    push('request_p50', r.requestLatencyMs.p50, 'ms');
    push('request_p99', r.requestLatencyMs.p99, 'ms');
    push('server_cpu_per_hit', r.serverCpuUsPerHit, 'us');
    push('database_cpu_per_hit', r.databaseCpuUsPerHit, 'us');
    push('client_cpu_per_hit', r.clientCpuUsPerHit, 'us');
    push('hits', r.hits, 'hits');
    push('errors', r.errors, 'requests');
  }
  for (const c of results.queries?.cells ?? []) {
    const variant = `${c.kind}/${c.design}/${c.dataSize}`;
    rows.push(['queries', variant, 'p50', c.latencyMs.p50, 'ms']);
    rows.push(['queries', variant, 'p95', c.latencyMs.p95, 'ms']);
    rows.push(['queries', variant, 'p99', c.latencyMs.p99, 'ms']);
    rows.push(['queries', variant, 'samples', c.latencyMs.n, 'requests']);
    if (c.documentsExamined !== undefined)
      rows.push(['queries', variant, 'documents_examined', c.documentsExamined, 'documents']);
    if (c.documentsReturned !== undefined)
      rows.push(['queries', variant, 'documents_returned', c.documentsReturned, 'documents']);
    if (c.bytesReturned !== undefined) rows.push(['queries', variant, 'bytes_returned', c.bytesReturned, 'bytes']);
    if (c.httpBytes !== undefined) rows.push(['queries', variant, 'http_response', c.httpBytes, 'bytes']);
    if (c.serverCpuMsPerQuery !== undefined)
      rows.push(['queries', variant, 'server_cpu_per_query', c.serverCpuMsPerQuery, 'ms']);
  }
  for (const d of results.queries?.dataSets ?? []) {
    const variant = `${d.dataSize}_hits`;
    rows.push(['data-set', variant, 'daily_documents', d.dailyDocuments, 'documents']);
    rows.push(['data-set', variant, 'monthly_documents', d.monthlyDocuments, 'documents']);
    rows.push(['data-set', variant, 'raw_load', d.rawLoadMs, 'ms']);
    rows.push(['data-set', variant, 'counter_load', d.counterLoadMs, 'ms']);
    const { raw, daily, monthly } = d.storage;
    rows.push(['data-set', variant, 'raw_events_data', raw?.size, 'bytes']);
    rows.push(['data-set', variant, 'raw_events_index', raw?.totalIndexSize, 'bytes']);
    rows.push(['data-set', variant, 'tally_data', daily && monthly ? daily.size + monthly.size : undefined, 'bytes']);
    rows.push([
      'data-set',
      variant,
      'tally_index',
      daily && monthly ? daily.totalIndexSize + monthly.totalIndexSize : undefined,
      'bytes',
    ]);
  }
  rows.push(...audienceRows(results));
  rows.push(...peerRows(results));
  for (const r of results.storage?.rows ?? []) {
    const variant = `${r.hitsPerPageDay}_hits_per_page_day`;
    rows.push(['storage', variant, 'sparse_bson_per_page_day', r.sparseBytes, 'bytes']);
    rows.push(['storage', variant, 'preallocated_bson_per_page_day', r.preallocatedBytes, 'bytes']);
    rows.push(['storage', variant, 'raw_events_bson_per_page_day', r.rawEventBytes, 'bytes']);
  }
  return rows;
}

/** Sections 7–10: ingest per shape and variant, stored sizes, query cells and estimate errors. */
function audienceRows(results: BenchResults): Row[] {
  const rows: Row[] = [];
  for (const r of results.audienceIngest?.runs ?? []) {
    const variant = `${r.shape}/${r.variant}`;
    rows.push(['audience-ingest', variant, 'hits_per_s', r.hitsPerSecond, 'hits/s', r.engine]);
    rows.push(['audience-ingest', variant, 'write_commands_per_hit', r.writeCommandsPerHit, 'commands/hit', r.engine]);
    rows.push(['audience-ingest', variant, 'server_cpu_per_hit', r.serverCpuUsPerHit, 'us', r.engine]);
    rows.push(['audience-ingest', variant, 'database_cpu_per_hit', r.databaseCpuUsPerHit, 'us', r.engine]);
    rows.push(['audience-ingest', variant, 'client_cpu_per_hit', r.clientCpuUsPerHit, 'us', r.engine]);
    rows.push(['audience-ingest', variant, 'hits', r.hits, 'hits', r.engine]);
    rows.push(['audience-ingest', variant, 'errors', r.errors, 'requests', r.engine]);
  }
  const storage = results.audienceStorage;
  for (const r of storage?.sketchGrowth ?? []) {
    const variant = `${r.visitors}_visitors`;
    for (const kind of ['pageDay', 'pageMonth', 'siteDay', 'siteMonth'] as const) {
      rows.push(['audience-storage', variant, `${kind}_without_visitors_bson`, r[kind].without, 'bytes']);
      rows.push(['audience-storage', variant, `${kind}_with_visitors_bson`, r[kind].with, 'bytes']);
    }
  }
  for (const r of storage?.siteDays ?? []) {
    const variant = `${r.hits}_hits/${r.variant.replace(/ /g, '_')}`;
    rows.push(['audience-storage', variant, 'daily_documents', r.documents, 'documents']);
    rows.push(['audience-storage', variant, 'daily_bson', r.dailyBytes, 'bytes']);
    rows.push(['audience-storage', variant, 'site_total_daily_bson', r.siteTotalBytes, 'bytes']);
    rows.push(['audience-storage', variant, 'monthly_bson', r.monthlyBytes, 'bytes']);
  }
  for (const r of storage?.referrerHosts ?? []) {
    const variant = `${r.hosts}_hosts/max_values_${r.maxValues}`;
    rows.push(['audience-storage', variant, 'site_day_document_bson', r.documentBytes, 'bytes']);
    rows.push(['audience-storage', variant, 'source_keys', r.sourceKeys, 'keys']);
    rows.push(['audience-storage', variant, 'other_hits', r.otherHits, 'hits']);
  }
  for (const c of results.audienceQueries?.cells ?? []) {
    rows.push(['audience-queries', c.key, 'p50', c.latencyMs.p50, 'ms']);
    rows.push(['audience-queries', c.key, 'p95', c.latencyMs.p95, 'ms']);
    rows.push(['audience-queries', c.key, 'server_cpu_per_query', c.serverCpuMsPerQuery, 'ms']);
    rows.push(['audience-queries', c.key, 'finds_per_query', c.findsPerQuery, 'commands']);
    if (c.totalCount !== undefined) rows.push(['audience-queries', c.key, 'total_count', c.totalCount, 'values']);
  }
  for (const a of results.audienceQueries?.accuracy ?? []) {
    rows.push([
      'visitor-accuracy',
      `stored/${a.level}`,
      'median_relative_error',
      a.errors.medianRelativeError,
      'ratio',
    ]);
    rows.push(['visitor-accuracy', `stored/${a.level}`, 'max_relative_error', a.errors.maxRelativeError, 'ratio']);
  }
  for (const s of results.visitorAccuracy?.sketches ?? []) {
    const variant = `sketch/${s.level}/${s.visitors}`;
    rows.push(['visitor-accuracy', variant, 'median_relative_error', s.errors.medianRelativeError, 'ratio']);
    rows.push(['visitor-accuracy', variant, 'max_relative_error', s.errors.maxRelativeError, 'ratio']);
  }
  const accuracy = results.visitorAccuracy;
  for (const s of accuracy ? [...accuracy.server, accuracy.site] : []) {
    rows.push(['visitor-accuracy', `server/${s.page}`, 'estimate', s.range.estimate ?? undefined, 'visitors']);
    rows.push(['visitor-accuracy', `server/${s.page}`, 'truth', s.range.truth, 'visitors']);
  }
  return rows;
}

/** Section 11: each system's ingest, disk and query p50 per traffic shape, labelled with the system. */
function peerRows(results: BenchResults): Row[] {
  const rows: Row[] = [];
  for (const r of results.peer?.runs ?? []) {
    const push = (variant: string, metric: string, value: number | undefined, unit: string): void => {
      rows.push(['peer', variant, metric, value, unit, r.label]);
    };
    const variant = `${r.shape}/${r.system}`;
    push(variant, 'hits_per_s_until_counted', r.hitsPerSecond, 'hits/s');
    push(variant, 'cpu_per_hit_all_processes', r.cpuUsPerHit, 'us');
    push(variant, 'cpu_per_hit_server_process', r.serverCpuUsPerHit, 'us');
    push(variant, 'request_p50', r.requestLatencyMs.p50, 'ms');
    push(variant, 'disk', r.diskBytes, 'bytes');
    push(variant, 'errors', r.errors, 'requests');
    for (const q of r.queries) {
      push(`${variant}/${q.kind}`, 'p50', q.latencyMs.p50, 'ms');
      push(`${variant}/${q.kind}`, 'equals_truth', q.mismatch === undefined ? 1 : 0, 'boolean');
    }
  }
  return rows;
}

function csvField(value: number | string | undefined): string {
  if (value === undefined || (typeof value === 'number' && !Number.isFinite(value))) return '';
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function writeResults(dir: string, results: BenchResults): { json: string; csv: string } {
  fs.mkdirSync(dir, { recursive: true });
  const json = path.join(dir, 'results.json');
  const csv = path.join(dir, 'results.csv');
  fs.writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  const header = 'section,variant,metric,value,unit,engine';
  const lines = [header];
  for (const [section, variant, metric, value, unit, engine] of csvRows(results))
    lines.push([section, variant, metric, value, unit, engine ?? results.engine.label].map(csvField).join(','));
  fs.writeFileSync(csv, `${lines.join('\n')}\n`);
  return { json, csv };
}
