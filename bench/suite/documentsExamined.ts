/**
 * Documents a read made the database examine, which is what it costs the server; documents returned are only
 * what crossed the wire. Each captured command is explained once, outside the timed runs. MongoDB says it
 * directly (`executionStats.totalDocsExamined`). FerretDB 1.x explains with SQLite's plan instead: a `SCAN`
 * reads (and decodes) every row of the table, a `SEARCH … USING INDEX` (only ever the `_id` index) one row.
 */
import type { Document, MongoClient } from 'mongodb';
import type { EngineInfo } from '../../src/store/EngineInfo';
import type { CapturedRead } from '../shared/MonitoredClient';

export async function documentsExamined(
  client: MongoClient,
  engine: EngineInfo,
  reads: readonly CapturedRead[],
): Promise<number | undefined> {
  const tableRows = new Map<string, number>();
  let total = 0;
  for (const read of reads) {
    // tally's FerretDB build answers `{_id: {$in: ids}}` with `_id IN (…)` on the primary key, but patches only the
    // query path, not explain's, whose plan still says SCAN: count one index lookup per id instead.
    const ids = engine.prefersIdListReads ? idList(read.filter) : undefined;
    if (ids !== undefined) {
      total += ids;
      continue;
    }
    const db = client.db(read.db);
    const command = read.pipeline
      ? { aggregate: read.collection, pipeline: read.pipeline, cursor: {} }
      : { find: read.collection, filter: read.filter ?? {} };
    let explain: Document;
    try {
      explain = await db.command({ explain: command, verbosity: 'executionStats' });
    } catch {
      return undefined;
    }
    const examined = findNumber(explain, 'totalDocsExamined');
    if (examined !== undefined) {
      total += examined;
      continue;
    }
    const plan = (explain.queryPlanner as { Plan?: unknown } | undefined)?.Plan;
    if (!Array.isArray(plan)) return undefined;
    const text = plan.join('\n');
    if (text.includes('USING INDEX') && !/\bSCAN\b/.test(text)) {
      total += 1;
      continue;
    }
    const key = `${read.db}.${read.collection}`;
    let rows = tableRows.get(key);
    if (rows === undefined) {
      rows = await db.collection(read.collection).estimatedDocumentCount();
      tableRows.set(key, rows);
    }
    total += rows;
  }
  return total;
}

/** The number of ids when `filter` is exactly `{_id: {$in: [ids]}}`. */
function idList(filter: Document | undefined): number | undefined {
  if (!filter || Object.keys(filter).length !== 1) return undefined;
  const id = filter._id as Document | undefined;
  if (!id || typeof id !== 'object' || Object.keys(id).length !== 1 || !Array.isArray(id.$in)) return undefined;
  return (id.$in as unknown[]).length;
}

/**
 * The number under `key` nearest the top of an explain document, summed over that level (a sharded explain has
 * one per shard, and a total above them when the server merged them). Breadth first, no recursion over data.
 */
function findNumber(explain: Document, key: string): number | undefined {
  let level: unknown[] = [explain];
  while (level.length > 0) {
    let found: number | undefined;
    const next: unknown[] = [];
    for (const node of level) {
      if (typeof node !== 'object' || node === null) continue;
      for (const [name, value] of Object.entries(node as Document)) {
        if (name === key && typeof value === 'number') found = (found ?? 0) + value;
        else if (typeof value === 'object' && value !== null) next.push(value);
      }
    }
    if (found !== undefined) return found;
    level = next;
  }
  return undefined;
}
