import { counterUpsert } from '../../../src/store/counterUpsert';

const key = { id: '20260105/s/p', site: 's', page: '/p', date: new Date('2026-01-05T00:00:00Z') };

describe('counterUpsert', () => {
  it('puts the shard key in the filter for MongoDB, so a sharded cluster routes the write to one shard', () => {
    expect(counterUpsert(key, 'shardKey', { inc: { daily: 2 } })).toEqual({
      updateOne: {
        filter: { _id: '20260105/s/p', 'metadata.site': 's', 'metadata.page': '/p' },
        update: { $setOnInsert: { 'metadata.date': key.date }, $inc: { daily: 2 } },
        upsert: true,
      },
    });
  });

  it('filters by _id alone for FerretDB and sets the whole metadata on insert', () => {
    expect(counterUpsert(key, 'idOnly', { inc: { daily: 2 } })).toEqual({
      updateOne: {
        filter: { _id: '20260105/s/p' },
        update: { $setOnInsert: { metadata: { date: key.date, site: 's', page: '/p' } }, $inc: { daily: 2 } },
        upsert: true,
      },
    });
  });

  it('preallocates with $setOnInsert only, so an existing document is never touched', () => {
    expect(counterUpsert(key, 'idOnly', { zeros: { daily: 0 } })).toEqual({
      updateOne: {
        filter: { _id: '20260105/s/p' },
        update: { $setOnInsert: { metadata: { date: key.date, site: 's', page: '/p' }, daily: 0 } },
        upsert: true,
      },
    });
  });

  it('ORs visitor-sketch words in with $bit beside $inc and the exactly-once mark', () => {
    const mark = { mark: { lane: 'L', seq: 2 }, guards: [{ lane: 'L', seq: 2 }] };
    const bits = { 'v.7': { or: 0x100003 }, 'dv.device.desktop.250': { or: 0x40000001 } };
    expect(counterUpsert(key, 'idOnly', { inc: { daily: 1 }, bits, mark })).toEqual({
      updateOne: {
        filter: { _id: '20260105/s/p', '_a.L': { $not: { $gte: 2 } } },
        update: {
          $setOnInsert: { metadata: { date: key.date, site: 's', page: '/p' } },
          $inc: { daily: 1 },
          $bit: { 'v.7': { or: 0x100003 }, 'dv.device.desktop.250': { or: 0x40000001 } },
          $set: { '_a.L': 2 },
        },
        upsert: true,
      },
    });
  });
});
