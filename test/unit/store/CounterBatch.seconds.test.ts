import type { Hit } from '../../../src/domain/Hit';
import type { VisitDelta, VisitField } from '../../../src/domain/visits/VisitDelta';
import { CounterBatch } from '../../../src/store/CounterBatch';
import { preallocatedSecondsHour } from '../../../src/store/secondStats';

const ms = (iso: string): number => Date.parse(iso);
const NOW = ms('2026-11-21T12:00:00Z');
const RETENTION = 48 * 3_600_000;
const hit = (at: string, count = 1, page = '/p'): Hit => ({ site: 's', page, at: ms(at), count });

describe('CounterBatch second-level increments', () => {
  it('adds one coalesced upsert per page and minute, in the seed shape, with the shard key in the filter', () => {
    const batch = new CounterBatch({ seconds: { now: NOW, retentionMs: RETENTION } });
    batch.add(hit('2026-11-21T11:59:02.100Z'));
    batch.add(hit('2026-11-21T11:59:02.900Z', 3));
    batch.add(hit('2026-11-21T11:59:59.000Z'));
    expect(batch.seconds.toOperations('shardKey')).toEqual([
      {
        updateOne: {
          filter: { _id: '202611211159/s/p', 'metadata.site': 's', 'metadata.page': '/p' },
          update: {
            $setOnInsert: { 'metadata.date': new Date('2026-11-21T11:59:00Z') },
            $inc: { minute: 5, 'seconds.2': 4, 'seconds.59': 1 },
          },
          upsert: true,
        },
      },
    ]);
    // One daily, one monthly, one minute document.
    expect(batch.documents).toBe(3);
  });

  it.each([
    ['2026-11-19T12:00:00.000Z', 1],
    ['2026-11-19T11:59:59.999Z', 0],
    ['2026-01-01T00:00:00.000Z', 0],
  ])('a hit at %s creates %d second-level documents (retention 48 h before 2026-11-21T12:00Z)', (at, documents) => {
    const batch = new CounterBatch({ seconds: { now: NOW, retentionMs: RETENTION } });
    batch.add(hit(at));
    expect(batch.seconds.size).toBe(documents);
    expect(batch.daily.size).toBe(1);
    expect(batch.monthly.size).toBe(1);
  });

  it('writes no second-level increments when switched off', () => {
    const batch = new CounterBatch();
    batch.add(hit('2026-11-21T11:59:02Z'));
    expect(batch.seconds.size).toBe(0);
    expect(batch.documents).toBe(2);
  });

  it('carries second-level increments through absorb', () => {
    const a = new CounterBatch({ seconds: { now: NOW, retentionMs: RETENTION } });
    const b = new CounterBatch({ seconds: { now: NOW, retentionMs: RETENTION } });
    a.add(hit('2026-11-21T11:59:02Z'));
    b.add(hit('2026-11-21T11:59:02Z', 2));
    a.absorb(b);
    expect(a.seconds.toOperations('shardKey')).toMatchObject([
      { updateOne: { update: { $inc: { minute: 3, 'seconds.2': 3 } } } },
    ]);
  });
});

describe('preallocatedSecondsHour', () => {
  it('creates the 60 minute documents of the hour with zero-filled seconds, only on insert', () => {
    const operations = preallocatedSecondsHour('s', '/p', ms('2026-11-21T13:00:00Z'), 'shardKey');
    expect(operations).toHaveLength(60);
    expect(operations[0]).toEqual({
      updateOne: {
        filter: { _id: '202611211300/s/p', 'metadata.site': 's', 'metadata.page': '/p' },
        update: {
          $setOnInsert: {
            'metadata.date': new Date('2026-11-21T13:00:00Z'),
            minute: 0,
            seconds: Object.fromEntries([...Array(60).keys()].map((s) => [String(s), 0])),
          },
        },
        upsert: true,
      },
    });
    expect(operations[59]).toMatchObject({ updateOne: { filter: { _id: '202611211359/s/p' } } });
  });
});

describe('CounterBatch visit counters of minutes', () => {
  const delta = (start: string, field: VisitField, amount: number, page?: string): VisitDelta => ({
    page,
    start: ms(start),
    field,
    amount,
  });

  it("adds visit changes to the minute document of the visit's start (`vm`), exits excepted", () => {
    const batch = new CounterBatch({ seconds: { now: NOW, retentionMs: RETENTION } });
    batch.addVisitDelta('s', delta('2026-11-21T11:58:30Z', 'v', 1, '/p'), undefined);
    batch.addVisitDelta('s', delta('2026-11-21T11:58:30Z', 'e', 1, '/p'), undefined);
    batch.addVisitDelta('s', delta('2026-11-21T11:58:30Z', 'b', -1, '/p'), undefined);
    batch.addVisitDelta('s', delta('2026-11-21T11:58:30Z', 's', 95, '/p'), undefined);
    batch.addVisitDelta('s', delta('2026-11-21T11:58:30Z', 'x', -1, '/p'), undefined);
    batch.addVisitDelta('s', delta('2026-11-21T11:58:30Z', 'p', 1), undefined);
    expect(batch.seconds.toOperations('shardKey')).toMatchObject([
      {
        updateOne: {
          filter: { _id: '202611211158/s/p' },
          update: { $inc: { 'vm.v': 1, 'vm.e': 1, 'vm.b': -1, 'vm.s': 95 } },
        },
      },
      // The site's counters, in the site's minute document.
      { updateOne: { filter: { _id: '202611211158/s' }, update: { $inc: { 'vm.p': 1 } } } },
    ]);
  });

  it('adds none for a visit that started before the retention window, or without second-level counting', () => {
    const batch = new CounterBatch({ seconds: { now: NOW, retentionMs: RETENTION } });
    batch.addVisitDelta('s', delta('2026-11-19T11:59:59Z', 'v', 1, '/p'), undefined);
    expect(batch.seconds.size).toBe(0);
    const off = new CounterBatch();
    off.addVisitDelta('s', delta('2026-11-21T11:58:30Z', 'v', 1, '/p'), undefined);
    expect(off.seconds.size).toBe(0);
    expect(off.daily.size).toBe(1);
  });
});
