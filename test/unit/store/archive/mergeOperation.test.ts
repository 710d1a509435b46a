import fs from 'node:fs';
import path from 'node:path';
import { Binary, Int32, Long } from 'mongodb';
import { packCounters } from '../../../../src/domain/dimensions/packedCounters';
import { VisitorSketch } from '../../../../src/domain/visitors/VisitorSketch';
import { ARCHIVED_COLLECTIONS } from '../../../../src/store/archive/archivedCollections';
import { mergeOperation } from '../../../../src/store/archive/mergeOperation';

const DATE = new Date('2026-11-20T00:00:00Z');

describe('mergeOperation', () => {
  it('adds counters, ORs sketch words, takes the larger marker and sets the keys only on insert', () => {
    const operation = mergeOperation(
      {
        _id: '20261120/s/p',
        metadata: { date: DATE, site: 's', page: '/p' },
        daily: new Int32(5),
        hourly: { '3': new Int32(5) },
        minute: { '3': { '59': new Int32(5) } },
        v: { '7': new Int32(0b1010), '9': new Int32(1) },
        dv: { device: { mobile: { '4': new Int32(8) } } },
        d: { source: { google: new Int32(4), bing: new Long(1) } },
        _a: { lane: new Int32(12) },
      },
      'shardKey',
    );
    expect(operation).toEqual({
      updateOne: {
        filter: { _id: '20261120/s/p', 'metadata.site': 's', 'metadata.page': '/p' },
        update: {
          $setOnInsert: { 'metadata.date': DATE },
          $inc: { daily: 5, 'hourly.3': 5, 'minute.3.59': 5, 'd.source.google': 4, 'd.source.bing': 1 },
          $bit: { 'v.7': { or: 0b1010 }, 'v.9': { or: 1 }, 'dv.device.mobile.4': { or: 8 } },
          $max: { '_a.lane': new Int32(12) },
        },
        upsert: true,
      },
    });
  });

  it('unpacks packed sketches and counters into the fields they were packed from, combined with the unpacked ones', () => {
    const site = VisitorSketch.empty(13);
    site.words[7] = 0b0101;
    site.words[8000] = 3;
    const perValue = VisitorSketch.empty(8);
    perValue.words[200] = 16;
    const operation = mergeOperation(
      {
        _id: '202611/s/',
        metadata: { date: DATE, site: 's', page: '' },
        v: { '7': new Int32(0b1010) },
        vz: new Binary(Buffer.from(site.toPacked())),
        dvz: { device: { mobile: new Binary(Buffer.from(perValue.toPacked())) } },
        d: { source: { google: new Int32(4) } },
        dz: {
          source: new Binary(
            Buffer.from(
              packCounters([
                ['google', 10],
                ['news%2Eexample', 2],
              ]),
            ),
          ),
        },
      },
      'idOnly',
    );
    expect(operation).toEqual({
      updateOne: {
        filter: { _id: '202611/s/' },
        update: {
          $setOnInsert: { 'metadata.date': DATE, 'metadata.site': 's', 'metadata.page': '' },
          $inc: { 'd.source.google': 14, 'd.source.news%2Eexample': 2 },
          $bit: { 'v.7': { or: 0b1111 }, 'v.8000': { or: 3 }, 'dv.device.mobile.200': { or: 16 } },
        },
        upsert: true,
      },
    });
  });

  it('adds impression counts and routes pairs by their shard key', () => {
    expect(mergeOperation({ _id: 'u\u001fi', u: 'u', i: 'i', c: new Int32(3) }, 'shardKey')).toEqual({
      updateOne: { filter: { _id: 'u\u001fi', u: 'u', i: 'i' }, update: { $inc: { c: 3 } }, upsert: true },
    });
    expect(mergeOperation({ _id: 'item' }, 'shardKey')).toBeUndefined();
  });
});

describe('ARCHIVED_COLLECTIONS', () => {
  it('names every collection the store defines, each once', () => {
    const dir = path.resolve(__dirname, '../../../../src/store');
    const defined = new Set<string>();
    for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const match of text.matchAll(/export const \w+_COLLECTION = '([^']+)'/g)) defined.add(match[1] as string);
    }
    const archived = ARCHIVED_COLLECTIONS.map((collection) => collection.name);
    expect(defined.size).toBeGreaterThanOrEqual(8);
    expect(new Set(archived)).toEqual(defined);
    expect(archived).toHaveLength(defined.size);
  });
});
