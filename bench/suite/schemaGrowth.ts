/**
 * Section 1: the seed's experiment (004, "MongoDB Schema Design at Scale"). Simulated days, compressed in
 * time, of one-update-per-hit `record_hit` calls against four schemas of a per-day document, plotting
 * writes/s against the simulated time of day. Variants run interleaved hour by hour, so machine noise hits
 * all four alike. Direct driver calls, one update per hit, one in flight, as the seed's client did.
 */
import { BSON } from 'mongodb';
import type { Collection, Db, Document } from 'mongodb';
import type { SchemaGrowthSizes } from './sizes';
import { seededRandom } from '../shared/random';
import { optional } from '../shared/optional';
import { elapsedMs } from '../shared/stats';
import type { CollStats } from './collStats';
import { collStats } from './collStats';
import { setPath } from './setPath';

/** A per-day document of the seed's experiment, keyed by "YYYYMMDD/metric-N". */
interface GrowthDocument {
  _id: string;
  [field: string]: unknown;
}

export type SchemaVariantKey = 'growingFlat' | 'preallocatedFlat' | 'preallocatedNested' | 'growingNested';

interface SchemaVariant {
  readonly key: SchemaVariantKey;
  readonly label: string;
  readonly nested: boolean;
  readonly preallocated: boolean;
}

export const SCHEMA_VARIANTS: readonly SchemaVariant[] = [
  { key: 'growingFlat', label: 'growing flat minutes (seed v1)', nested: false, preallocated: false },
  { key: 'preallocatedFlat', label: 'pre-allocated flat minutes', nested: false, preallocated: true },
  { key: 'preallocatedNested', label: 'pre-allocated, nested by hour (seed)', nested: true, preallocated: true },
  { key: 'growingNested', label: 'nested by hour, not pre-allocated', nested: true, preallocated: false },
];

export interface GrowthPoint {
  /** Simulated hours since the first midnight (0, 1, …, 24·days - 1). */
  readonly simulatedHour: number;
  readonly writes: number;
  readonly writesPerSecond: number;
}

export interface SchemaGrowthVariantResult {
  readonly key: SchemaVariantKey;
  readonly label: string;
  readonly timeline: GrowthPoint[];
  readonly writes: number;
  readonly preallocations: number;
  readonly meanWritesPerSecond: number;
  readonly firstHourWritesPerSecond: number;
  readonly lastHourWritesPerSecond: number;
  /** The last simulated day's documents at the end of the run. */
  readonly finalDocumentBytes: number;
  readonly finalMinuteFields: number;
  /** A document of this schema with every minute of the day set (what a full day of traffic reaches). */
  readonly fullDayDocumentBytes: number;
  readonly collStats?: CollStats;
}

export interface SchemaGrowthResult {
  readonly sizes: SchemaGrowthSizes;
  readonly variants: SchemaGrowthVariantResult[];
}

const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2012, 8, 25);

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function documentIdFor(day: number, measure: number): string {
  return `${new Date(day).toISOString().slice(0, 10).replace(/-/g, '')}/metric-${measure}`;
}

function minutePath(variant: SchemaVariant, minuteOfDay: number): string {
  const hour = Math.floor(minuteOfDay / 60);
  return variant.nested ? `minute.${pad(hour, 2)}.${pad(minuteOfDay % 60, 2)}` : `minute.${pad(minuteOfDay, 4)}`;
}

/** The seed's preallocate(): $inc by zero of every counter, so an existing document is left unchanged. */
function preallocationUpdate(variant: SchemaVariant, day: number, measure: number): Document {
  const zeros: Record<string, number> = { daily: 0 };
  for (let h = 0; h < 24; h++) zeros[`hourly.${pad(h, 2)}`] = 0;
  for (let m = 0; m < 1440; m++) zeros[minutePath(variant, m)] = 0;
  return { $set: { metadata: { date: new Date(day), measure: `metric-${measure}` } }, $inc: zeros };
}

function hitUpdate(variant: SchemaVariant, day: number, measure: number, minuteOfDay: number): Document {
  return {
    $setOnInsert: { metadata: { date: new Date(day), measure: `metric-${measure}` } },
    $inc: { daily: 1, [`hourly.${pad(Math.floor(minuteOfDay / 60), 2)}`]: 1, [minutePath(variant, minuteOfDay)]: 1 },
  };
}

function fullDayDocument(variant: SchemaVariant): Document {
  const update = preallocationUpdate(variant, FIRST_DAY, 0);
  const doc: Document = { _id: documentIdFor(FIRST_DAY, 0), metadata: update.$set.metadata };
  for (const [path, value] of Object.entries(update.$inc as Record<string, number>)) setPath(doc, path, value + 1);
  return doc;
}

export async function runSchemaGrowth(db: Db, sizes: SchemaGrowthSizes): Promise<SchemaGrowthResult> {
  const random = seededRandom(4004);
  const collections = new Map<SchemaVariantKey, Collection<GrowthDocument>>();
  const timelines = new Map<SchemaVariantKey, GrowthPoint[]>();
  const preallocations = new Map<SchemaVariantKey, number>();
  for (const variant of SCHEMA_VARIANTS) {
    const collection = db.collection<GrowthDocument>(`growth.${variant.key}`);
    await collection.drop().catch(() => undefined);
    collections.set(variant.key, collection);
    timelines.set(variant.key, []);
    preallocations.set(variant.key, 0);
    // Day one's documents as yesterday's preallocation would have left them (not timed).
    if (variant.preallocated) {
      for (let m = 0; m < sizes.measures; m++) {
        await collection.updateOne({ _id: documentIdFor(FIRST_DAY, m) }, preallocationUpdate(variant, FIRST_DAY, m), {
          upsert: true,
        });
      }
    }
  }
  // Tomorrow's document of each measure is preallocated once, at a random minute of today: spread over the
  // day like the seed's random 1/h, without its chance of missing a document.
  const slots = new Map<string, number>();
  for (let d = 0; d < sizes.days; d++) {
    for (let m = 0; m < sizes.measures; m++) slots.set(`${d}/${m}`, Math.floor(random() * 1380));
  }

  for (let hour = 0; hour < 24 * sizes.days; hour++) {
    const dayIndex = Math.floor(hour / 24);
    const day = FIRST_DAY + dayIndex * DAY_MS;
    for (const variant of SCHEMA_VARIANTS) {
      const collection = collections.get(variant.key) as Collection<GrowthDocument>;
      let writes = 0;
      const start = process.hrtime.bigint();
      for (let minute = (hour % 24) * 60; minute < ((hour % 24) + 1) * 60; minute += sizes.minuteStride) {
        for (let m = 0; m < sizes.measures; m++) {
          const slot = slots.get(`${dayIndex}/${m}`) ?? -1;
          if (variant.preallocated && minute === slot - (slot % sizes.minuteStride)) {
            const tomorrow = day + DAY_MS;
            await collection.updateOne({ _id: documentIdFor(tomorrow, m) }, preallocationUpdate(variant, tomorrow, m), {
              upsert: true,
            });
            preallocations.set(variant.key, (preallocations.get(variant.key) ?? 0) + 1);
            writes += 1;
          }
          for (let h = 0; h < sizes.hitsPerMinute; h++) {
            await collection.updateOne({ _id: documentIdFor(day, m) }, hitUpdate(variant, day, m, minute), {
              upsert: true,
            });
            writes += 1;
          }
        }
      }
      const ms = elapsedMs(start);
      (timelines.get(variant.key) as GrowthPoint[]).push({
        simulatedHour: hour,
        writes,
        writesPerSecond: writes / (ms / 1000),
      });
    }
  }

  const lastDay = FIRST_DAY + (sizes.days - 1) * DAY_MS;
  const variants: SchemaGrowthVariantResult[] = [];
  for (const variant of SCHEMA_VARIANTS) {
    const collection = collections.get(variant.key) as Collection<GrowthDocument>;
    const timeline = timelines.get(variant.key) as GrowthPoint[];
    const docs = await collection
      .find({ _id: { $in: range(sizes.measures).map((m) => documentIdFor(lastDay, m)) } })
      .toArray();
    const bytes = docs.map((doc) => BSON.calculateObjectSize(doc));
    const fields = docs.map((doc) => countLeaves(doc.minute as Document | undefined));
    const writes = timeline.reduce((sum, p) => sum + p.writes, 0);
    const seconds = timeline.reduce((sum, p) => sum + p.writes / p.writesPerSecond, 0);
    variants.push({
      key: variant.key,
      label: variant.label,
      timeline,
      writes,
      preallocations: preallocations.get(variant.key) ?? 0,
      meanWritesPerSecond: writes / seconds,
      firstHourWritesPerSecond: timeline[0]?.writesPerSecond ?? Number.NaN,
      lastHourWritesPerSecond: timeline[timeline.length - 1]?.writesPerSecond ?? Number.NaN,
      finalDocumentBytes: mean(bytes),
      finalMinuteFields: mean(fields),
      fullDayDocumentBytes: BSON.calculateObjectSize(fullDayDocument(variant)),
      ...optional('collStats', await collStats(db, collection.collectionName)),
    });
  }
  return { sizes, variants };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function mean(values: number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Counts the non-object values under `node`, with an explicit stack (no recursion over data). */
function countLeaves(node: Document | undefined): number {
  const stack: Document[] = node ? [node] : [];
  let n = 0;
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    for (const value of Object.values(current)) {
      if (typeof value === 'object' && value !== null) stack.push(value as Document);
      else n += 1;
    }
  }
  return n;
}
