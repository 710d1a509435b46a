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
  for (const r of results.storage?.rows ?? []) {
    const variant = `${r.hitsPerPageDay}_hits_per_page_day`;
    rows.push(['storage', variant, 'sparse_bson_per_page_day', r.sparseBytes, 'bytes']);
    rows.push(['storage', variant, 'preallocated_bson_per_page_day', r.preallocatedBytes, 'bytes']);
    rows.push(['storage', variant, 'raw_events_bson_per_page_day', r.rawEventBytes, 'bytes']);
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
