/**
 * Which FerretDB build answers: the stock 1.24 release or ours (scripts/ensure-ferretdb.js patches it so that
 * `_id` lookups use the `_id` index and an exact `_id` is pushed down to SQL whatever else the filter holds).
 * Told apart by behaviour, not by path, so a server at MONGODB_URI is labelled as truly as one we started:
 * `explain` on FerretDB returns SQLite's query plan (`SEARCH … USING INDEX` or `SCAN`) and `filterPushdown`.
 */
import type { Db, Document } from 'mongodb';

export type FerretdbBuild = 'patched' | 'stock' | 'partly patched';

export interface FerretdbBuildProbe {
  readonly build: FerretdbBuild;
  /** A find by exact `_id` searches the `_id` index instead of scanning the table. */
  readonly idLookupUsesIndex: boolean;
  /** `{_id, other}` narrows the SQL by `_id` too (stock pushes down only a filter that is exactly `{_id}`). */
  readonly idPushedDownWithOtherFields: boolean;
}

const PROBE_COLLECTION = 'buildProbe';

export async function probeFerretdbBuild(db: Db): Promise<FerretdbBuildProbe> {
  const collection = db.collection<{ _id: string; x: number }>(PROBE_COLLECTION);
  await collection.drop().catch(() => undefined);
  await collection.insertMany([
    { _id: 'a', x: 1 },
    { _id: 'b', x: 2 },
  ]);
  try {
    const byId = await db.command({ explain: { find: PROBE_COLLECTION, filter: { _id: 'a' } } });
    const byIdAndMore = await db.command({ explain: { find: PROBE_COLLECTION, filter: { _id: 'a', x: 1 } } });
    const idLookupUsesIndex = planText(byId).includes('USING INDEX');
    const idPushedDownWithOtherFields = byIdAndMore.filterPushdown === true;
    const build: FerretdbBuild =
      idLookupUsesIndex && idPushedDownWithOtherFields
        ? 'patched'
        : !idLookupUsesIndex && !idPushedDownWithOtherFields
          ? 'stock'
          : 'partly patched';
    return { build, idLookupUsesIndex, idPushedDownWithOtherFields };
  } finally {
    await collection.drop().catch(() => undefined);
  }
}

function planText(explain: Document): string {
  const plan = (explain.queryPlanner as { Plan?: unknown } | undefined)?.Plan;
  return Array.isArray(plan) ? plan.join('\n') : JSON.stringify(plan ?? '');
}
