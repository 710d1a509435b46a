import type { Binary, Document } from 'mongodb';
import { addPackedCounters, packCounters } from '../../../src/domain/dimensions/packedCounters';
import { SITE_TOTAL_PAGE } from '../../../src/domain/siteTotal';
import { VisitorSketch } from '../../../src/domain/visitors/VisitorSketch';
import { periodCompaction } from '../../../src/store/compactPastPeriods';
import type { CompactableDocument } from '../../../src/store/compactPastPeriods';
import { COMPACTION_DELAY_MS, CompactionNominations } from '../../../src/store/CompactionNominations';
import { sketchOf } from '../domain/visitors/sketchOf';

const words = (sketch: VisitorSketch): number[] => Array.from(sketch.words);

function update(
  doc: CompactableDocument,
  level: 'daily' | 'monthly' = 'daily',
  targeting: 'shardKey' | 'idOnly' = 'idOnly',
) {
  const operation = periodCompaction(doc, level, targeting) as { updateOne: { filter: Document; update: Document } };
  return operation.updateOne;
}

const bytes = (value: unknown): Uint8Array => (value as Binary).buffer;

describe('periodCompaction', () => {
  it('has nothing to do for a document without register fields (none, or already compacted)', () => {
    expect(periodCompaction({ _id: 'x', daily: 3 }, 'daily', 'idOnly')).toBeUndefined();
    const vz = sketchOf(11, 1, 0, 10).toPacked();
    expect(periodCompaction({ _id: 'x', daily: 3, vz }, 'daily', 'idOnly')).toBeUndefined();
  });

  it.each([
    ['/p', 'daily', 11],
    ['/p', 'monthly', 11],
    [SITE_TOTAL_PAGE, 'daily', 13],
    [SITE_TOTAL_PAGE, 'monthly', 13],
  ] as const)('packs the %s %s sketch at precision %i, OR-ed with what was packed before', (page, level, precision) => {
    const older = sketchOf(precision, 2, 0, 400);
    const newer = sketchOf(precision, 2, 300, 900);
    const { update: change } = update(
      { _id: 'x', metadata: { site: 's', page }, daily: 1, v: newer.toStoredFields(), vz: older.toPacked() },
      level,
    );
    expect(change.$unset).toEqual({ v: '', dv: '', d: '' });
    const packed = bytes(change.$set.vz);
    expect(packed[1]).toBe(precision);
    expect(words(VisitorSketch.fromPacked(packed, precision))).toEqual(words(sketchOf(precision, 2, 0, 900)));
  });

  it('packs each per-value sketch at the minute precision, keeping values only packed before', () => {
    const mobile = sketchOf(8, 3, 0, 50);
    const tablet = sketchOf(8, 3, 50, 60);
    const { update: change } = update({
      _id: 'x',
      metadata: { site: 's', page: SITE_TOTAL_PAGE },
      daily: 9,
      dv: { device: { mobile: mobile.toStoredFields() } },
      dvz: { device: { tablet: tablet.toPacked() }, os: { Linux: tablet.toPacked() } },
    });
    expect(change.$set.vz).toBeUndefined();
    const dvz = change.$set.dvz as Record<string, Record<string, Binary>>;
    expect(Object.keys(dvz).sort()).toEqual(['device', 'os']);
    expect(words(VisitorSketch.fromPacked(bytes(dvz.device?.mobile), 8))).toEqual(words(mobile));
    expect(words(VisitorSketch.fromPacked(bytes(dvz.device?.tablet), 8))).toEqual(words(tablet));
    expect(words(VisitorSketch.fromPacked(bytes(dvz.os?.Linux), 8))).toEqual(words(tablet));
  });

  it("packs each dimension's counters, adding what was packed before, and leaves the sketches as they are", () => {
    const { update: change } = update({
      _id: 'x',
      metadata: { site: 's', page: '/p' },
      daily: 9,
      vz: sketchOf(11, 1, 0, 10).toPacked(),
      d: { source: { google: 4, 'news%2Eexample': 2 }, device: { mobile: 3 } },
      dz: {
        source: packCounters([
          ['google', 10],
          ['bing', 1],
        ]),
        os: packCounters([['Linux', 7]]),
      },
    });
    expect(change.$set.vz).toBeUndefined();
    expect(change.$set.dvz).toBeUndefined();
    const dz = change.$set.dz as Record<string, Binary>;
    expect(Object.keys(dz).sort()).toEqual(['device', 'os', 'source']);
    const read = (packed: Binary | undefined): Record<string, number> => {
      const counts = new Map<string, number>();
      addPackedCounters(bytes(packed), counts);
      return Object.fromEntries(counts);
    };
    expect(read(dz.source)).toEqual({ bing: 1, google: 14, 'news%2Eexample': 2 });
    expect(read(dz.device)).toEqual({ mobile: 3 });
    expect(read(dz.os)).toEqual({ Linux: 7 });
    expect(change.$unset).toEqual({ v: '', dv: '', d: '' });
  });

  it('has nothing to do for counters already packed', () => {
    expect(periodCompaction({ _id: 'x', daily: 3, dz: { os: packCounters([['Linux', 3]]) } }, 'daily', 'idOnly')).toBe(
      undefined,
    );
  });

  it('guards a daily document by its total and a monthly one by every day, a day without hits by absence', () => {
    const v = { '3': 1 };
    const noEvents = { ve: { $exists: false } };
    expect(update({ _id: 'd', daily: 12, v }).filter).toEqual({ _id: 'd', daily: 12, ...noEvents });
    expect(update({ _id: 'd', v }).filter).toEqual({ _id: 'd', daily: { $exists: false }, ...noEvents });
    // A site document's events join its sketch without a hit: their count guards it too.
    expect(update({ _id: 'd', daily: 12, ve: 4, v }).filter).toEqual({ _id: 'd', daily: 12, ve: 4 });
    const monthly = update({ _id: 'm', daily: { '2': 5, '30': 1 }, v }, 'monthly').filter;
    expect(Object.keys(monthly)).toHaveLength(33);
    expect(monthly).toMatchObject({
      _id: 'm',
      'daily.1': { $exists: false },
      'daily.2': 5,
      'daily.30': 1,
      'daily.31': { $exists: false },
    });
  });

  it('targets the shard with the shard key where the policy writes that way', () => {
    const doc = { _id: 'd', metadata: { site: 's', page: '/p' }, daily: 1, v: { '1': 1 } };
    expect(update(doc, 'daily', 'shardKey').filter).toEqual({
      _id: 'd',
      daily: 1,
      ve: { $exists: false },
      'metadata.site': 's',
      'metadata.page': '/p',
    });
    expect(update(doc, 'daily', 'idOnly').filter).toEqual({ _id: 'd', daily: 1, ve: { $exists: false } });
  });
});

describe('CompactionNominations', () => {
  const DAY = 86_400_000;

  it.each([
    // [level, period start, due]: the period's end plus the delay, over a leap day and a year end.
    ['daily', Date.UTC(2028, 1, 28), Date.UTC(2028, 1, 29)],
    ['daily', Date.UTC(2028, 1, 29), Date.UTC(2028, 2, 1)],
    ['daily', Date.UTC(2026, 11, 31), Date.UTC(2027, 0, 1)],
    ['monthly', Date.UTC(2028, 1, 1), Date.UTC(2028, 2, 1)],
    ['monthly', Date.UTC(2026, 11, 1), Date.UTC(2027, 0, 1)],
  ] as const)('a %s document of %i falls due at the end %i plus the delay', (level, start, end) => {
    const nominations = new CompactionNominations();
    nominations.nominate(level, 'id', start);
    expect(nominations.take(level, end + COMPACTION_DELAY_MS - 1)).toEqual([]);
    expect(nominations.take(level, end + COMPACTION_DELAY_MS)).toEqual(['id']);
    expect(nominations.take(level, end + DAY)).toEqual([]);
  });

  it('holds each id once, takes no more past its limit, and takes back what a failed run restores', () => {
    const nominations = new CompactionNominations(2);
    nominations.nominate('daily', 'a', 0);
    nominations.nominate('daily', 'a', 0);
    nominations.nominate('daily', 'b', 0);
    nominations.nominate('daily', 'c', 0);
    nominations.nominate('monthly', 'a', 0);
    expect(nominations.size('daily')).toBe(2);
    const due = nominations.take('daily', 40 * DAY);
    expect(due).toEqual(['a', 'b']);
    expect(nominations.size('daily')).toBe(0);
    nominations.restore('daily', due, 40 * DAY);
    expect(nominations.take('daily', 40 * DAY)).toEqual(['a', 'b']);
    expect(nominations.take('monthly', 40 * DAY)).toEqual(['a']);
  });
});
