/**
 * What a flush sends for visitors (issue 19) and dimensions (issue 20), as CONTRACT lists it: `$bit … or` words
 * coalesced by OR per register at each level's precision, `d` counters under escaped keys, `dv` sketches in site
 * documents for the listed dimensions only, and the per-document cap that counts new values as `(other)`.
 */
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import type { Dimension, DimensionValues } from '../../../src/domain/dimensions/Dimension';
import type { Hit } from '../../../src/domain/Hit';
import type { Hash64 } from '../../../src/domain/visitors/Hash64';
import { splitmix64 } from '../../../src/domain/visitors/splitmix64';
import { VISITOR_PRECISION } from '../../../src/domain/visitors/VisitorPrecision';
import { VisitorSketch } from '../../../src/domain/visitors/VisitorSketch';
import { CounterBatch } from '../../../src/store/CounterBatch';
import type { CounterBatchOptions } from '../../../src/store/CounterBatch';
import { DimensionCounting } from '../../../src/store/DimensionCounting';
import type { PendingUpdates } from '../../../src/store/PendingUpdates';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const AT = Date.parse('2026-11-21T11:59:02Z');
const SECONDS = { now: NOW, retentionMs: 48 * 3_600_000 };
const VALUES: DimensionValues = {
  source: 'news.example.com',
  utmSource: '(none)',
  utmMedium: '(none)',
  utmCampaign: '(none)',
  browser: 'Firefox',
  os: 'Linux',
  device: 'desktop',
  country: 'DE',
};

const hit = (fields: Partial<Hit> = {}): Hit => ({ site: 's', page: '/p', at: AT, count: 1, ...fields });

function update(pending: PendingUpdates, id: string): Document {
  const operation = pending.toOperations('shardKey').find((op) => updateOf(op).filter._id === id);
  if (operation === undefined) throw new Error(`no upsert of ${id}`);
  return updateOf(operation).update as Document;
}

function updateOf(operation: AnyBulkWriteOperation<Document>): { filter: Document; update: Document } {
  return (operation as { updateOne: { filter: Document; update: Document } }).updateOne;
}

/** The `$bit` operand a sketch of these visitors stores: `{ "<prefix><r>": { or: word } }`. */
function bitsOf(prefix: string, precision: number, visitors: readonly Hash64[]): Document {
  const sketch = VisitorSketch.empty(precision);
  for (const visitor of visitors) sketch.add(visitor);
  return Object.fromEntries(
    Object.entries(sketch.toStoredFields()).map(([register, word]) => [`${prefix}${register}`, { or: word }]),
  );
}

function batch(options: CounterBatchOptions = {}): CounterBatch {
  return new CounterBatch({ siteTotals: true, seconds: SECONDS, ...options });
}

describe('CounterBatch visitor sketches', () => {
  const visitors = Array.from({ length: 40 }, (_, i) => splitmix64(7, i));

  it('ORs every visitor into its register at each level: page day and month p=11, site p=13, minutes p=8', () => {
    const b = batch();
    for (const visitor of visitors) b.add(hit({ visitor }));
    expect(update(b.daily, '20261121/s/p').$bit).toEqual(bitsOf('v.', VISITOR_PRECISION.pageDay, visitors));
    expect(update(b.monthly, '202611/s/p').$bit).toEqual(bitsOf('v.', VISITOR_PRECISION.pageMonth, visitors));
    expect(update(b.daily, '20261121/s').$bit).toEqual(bitsOf('v.', VISITOR_PRECISION.siteDay, visitors));
    expect(update(b.monthly, '202611/s').$bit).toEqual(bitsOf('v.', VISITOR_PRECISION.siteMonth, visitors));
    expect(update(b.seconds, '202611211159/s/p').$bit).toEqual(bitsOf('v.', VISITOR_PRECISION.minute, visitors));
    expect(update(b.seconds, '202611211159/s').$bit).toEqual(bitsOf('v.', VISITOR_PRECISION.minute, visitors));
  });

  it('coalesces two visitors of one register into one operand, the OR of their words', () => {
    const one = { hi: 0x00000000, lo: 0x00010005 };
    const two = { hi: 0x01abcdef, lo: 0x80000005 };
    const b = batch();
    b.add(hit({ visitor: one }));
    b.add(hit({ visitor: two }));
    b.add(hit({ visitor: one }));
    const bits = update(b.daily, '20261121/s/p').$bit as Record<string, { or: number }>;
    expect(Object.keys(bits)).toEqual(['v.5']);
    expect(bits['v.5']?.or).toBe(VisitorSketch.empty(11).add(one).add(two).words[5]);
  });

  it('sends no $bit for hits without a visitor, and counts them all the same', () => {
    const b = batch();
    b.add(hit());
    b.add(hit({ count: 4 }));
    const day = update(b.daily, '20261121/s/p');
    expect(day.$bit).toBeUndefined();
    expect(day.$inc).toMatchObject({ daily: 5 });
  });

  it('writes a site-total minute document beside the page minute when site totals are on', () => {
    const b = batch();
    b.add(hit({ count: 2 }));
    expect(update(b.seconds, '202611211159/s').$inc).toEqual({ minute: 2, 'seconds.2': 2 });
    expect(update(b.seconds, '202611211159/s').$setOnInsert).toEqual({
      'metadata.date': new Date('2026-11-21T11:59:00Z'),
    });
    const without = batch({ siteTotals: false });
    without.add(hit());
    expect(without.seconds.size).toBe(1);
  });

  it('carries sketch words through absorb, OR-ing them with what is there', () => {
    const a = batch();
    const b = batch({ dimensions: new DimensionCounting({ maxValues: 10, visitorDimensions: ['device'] }) });
    a.add(hit({ visitor: visitors[0] }));
    b.add(hit({ visitor: visitors[1], dimensions: VALUES }));
    a.absorb(b);
    expect(update(a.daily, '20261121/s/p').$bit).toEqual(
      bitsOf('v.', 11, [visitors[0] as Hash64, visitors[1] as Hash64]),
    );
    expect(update(a.daily, '20261121/s').$bit).toMatchObject(bitsOf('dv.device.desktop.', 8, [visitors[1] as Hash64]));
  });
});

describe('CounterBatch dimension counters', () => {
  const counting = (maxValues = 1000, visitorDimensions: readonly Dimension[] = []) =>
    new DimensionCounting({ maxValues, visitorDimensions });

  it('counts a hit once under its value of every dimension, in page and site documents but not minutes', () => {
    const b = batch({ dimensions: counting() });
    b.add(hit({ dimensions: VALUES, count: 3 }));
    const expected = {
      'd.source.news%2Eexample%2Ecom': 3,
      'd.utmSource.(none)': 3,
      'd.utmMedium.(none)': 3,
      'd.utmCampaign.(none)': 3,
      'd.browser.Firefox': 3,
      'd.os.Linux': 3,
      'd.device.desktop': 3,
      'd.country.DE': 3,
    };
    for (const [pending, id] of [
      [b.daily, '20261121/s/p'],
      [b.daily, '20261121/s'],
      [b.monthly, '202611/s/p'],
      [b.monthly, '202611/s'],
    ] as const) {
      expect(update(pending, id).$inc).toMatchObject(expected);
    }
    expect(Object.keys(update(b.seconds, '202611211159/s/p').$inc as Document)).toEqual(['minute', 'seconds.2']);
  });

  it("counts visit changes under their own visit's values when hits and visits of other values interleave", () => {
    const dimensionCounting = counting();
    const b = batch({ dimensions: dimensionCounting });
    const chrome = { ...VALUES, browser: 'Chrome' };
    const safari = { ...VALUES, browser: 'Safari' };
    const change = (field: 'v' | 'p', dimensions: DimensionValues) =>
      b.addVisitDelta('s', { page: undefined, start: AT, field, amount: 1, dimensions }, dimensionCounting);
    change('v', chrome);
    b.add(hit({ dimensions: VALUES }));
    change('p', chrome);
    change('v', safari);
    b.add(hit({ dimensions: { ...VALUES } }));
    change('p', safari);
    change('p', chrome);
    const inc = update(b.daily, '20261121/s').$inc as Record<string, number>;
    expect(inc).toMatchObject({
      'd.browser.Firefox': 2,
      'dx.browser.Chrome.v': 1,
      'dx.browser.Chrome.p': 2,
      'dx.browser.Safari.v': 1,
      'dx.browser.Safari.p': 1,
    });
    expect(inc['dx.browser.Firefox.v']).toBeUndefined();
    expect(inc['dx.browser.Firefox.p']).toBeUndefined();
  });

  it('escapes ".", "$" and "%" in keys, so any value is one field name', () => {
    const b = batch({ dimensions: counting() });
    b.add(hit({ dimensions: { ...VALUES, utmCampaign: '$5 off.50%' } }));
    expect(update(b.daily, '20261121/s/p').$inc).toMatchObject({ 'd.utmCampaign.%245 off%2E50%25': 1 });
  });

  it('writes no d when the batch counts no dimensions (DIMENSIONS_ENABLED=false), whatever the hits carry', () => {
    const b = batch();
    b.add(hit({ dimensions: VALUES }));
    expect(Object.keys(update(b.daily, '20261121/s/p').$inc as Document).some((path) => path.startsWith('d.'))).toBe(
      false,
    );
  });

  it('keeps per-value visitor sketches (dv) in site documents only, for the listed dimensions only', () => {
    const visitor = splitmix64(3, 1);
    const b = batch({ dimensions: counting(1000, ['device', 'country']) });
    b.add(hit({ dimensions: VALUES, visitor }));
    b.add(hit({ dimensions: VALUES }));
    const site = update(b.daily, '20261121/s').$bit as Document;
    expect(site).toEqual({
      ...bitsOf('v.', 13, [visitor]),
      ...bitsOf('dv.device.desktop.', 8, [visitor]),
      ...bitsOf('dv.country.DE.', 8, [visitor]),
    });
    expect(update(b.monthly, '202611/s').$bit).toMatchObject(bitsOf('dv.country.DE.', 8, [visitor]));
    expect(Object.keys(update(b.daily, '20261121/s/p').$bit as Document).every((p) => p.startsWith('v.'))).toBe(true);
  });

  it('counts values beyond DIMENSION_MAX_VALUES distinct keys per document as (other), across flushes', () => {
    const shared = counting(2, ['source']);
    const first = batch({ dimensions: shared });
    for (const source of ['a.example', 'b.example', 'c.example', 'a.example']) {
      first.add(hit({ dimensions: { ...VALUES, source }, visitor: splitmix64(1, source.charCodeAt(0)) }));
    }
    expect(update(first.daily, '20261121/s/p').$inc).toMatchObject({
      'd.source.a%2Eexample': 2,
      'd.source.b%2Eexample': 1,
      'd.source.(other)': 1,
    });
    expect(Object.keys(update(first.daily, '20261121/s').$bit as Document)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^dv\.source\.\(other\)\.\d+$/)]),
    );
    // The next flush: admitted values stay themselves, a new one is (other); another page has its own cap.
    const second = batch({ dimensions: shared });
    second.add(hit({ dimensions: { ...VALUES, source: 'b.example' } }));
    second.add(hit({ dimensions: { ...VALUES, source: 'd.example' } }));
    second.add(hit({ page: '/q', dimensions: { ...VALUES, source: 'd.example' } }));
    const inc = update(second.daily, '20261121/s/p').$inc as Document;
    expect(inc).toMatchObject({ 'd.source.b%2Eexample': 1, 'd.source.(other)': 1 });
    expect(inc['d.source.d%2Eexample']).toBeUndefined();
    expect(update(second.daily, '20261121/s/q').$inc).toMatchObject({ 'd.source.d%2Eexample': 1 });
  });
});
