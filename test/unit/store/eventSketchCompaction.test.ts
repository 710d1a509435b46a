import { Binary } from 'mongodb';
import { mergeCompactSketch } from '../../../src/domain/visitors/compactSketch';
import { VisitorSketch } from '../../../src/domain/visitors/VisitorSketch';
import { compactedSketch, eventSketchCompaction } from '../../../src/store/compactEventSketches';
import { EVENT_VISITOR_PRECISION } from '../../../src/store/eventDocument';
import { mergeOperation } from '../../../src/store/archive/mergeOperation';

function sketchOf(visitors: readonly number[]): VisitorSketch {
  const sketch = VisitorSketch.empty(EVENT_VISITOR_PRECISION);
  for (const v of visitors) sketch.add({ hi: v, lo: Math.imul(v, 2654435761) >>> 0 });
  return sketch;
}

function decoded(bytes: Uint8Array): VisitorSketch {
  const sketch = VisitorSketch.empty(EVENT_VISITOR_PRECISION);
  mergeCompactSketch(sketch, bytes);
  return sketch;
}

describe('eventSketchCompaction', () => {
  it.each([
    ['no sketch', {}],
    ['an emptied sketch field', { ev: {} }],
  ])('leaves a document with %s alone', (_, fields) => {
    expect(eventSketchCompaction({ _id: 'x', n: { A: 3 }, ...fields }, 'idOnly')).toBeUndefined();
  });

  it('sets each name read as one coded binary, unsets its fields, guarded by each name count', () => {
    const a = sketchOf([1, 2, 3, 4, 5]);
    const b = sketchOf([6, 7]);
    const operation = eventSketchCompaction(
      {
        _id: '2026-05-20/s/',
        metadata: { site: 's', page: '' },
        n: { A: 9, B: 2 },
        ev: { A: a.toStoredFields(), C: b.toStoredFields() },
      },
      'shardKey',
    );
    const update = (
      operation as { updateOne: { filter: object; update: { $set: Record<string, Binary>; $unset: object } } }
    ).updateOne;
    expect(update.filter).toEqual({
      _id: '2026-05-20/s/',
      'n.A': 9,
      // A name written without a count (not by tally) is guarded by the count staying absent.
      'n.C': { $exists: false },
      'metadata.site': 's',
      'metadata.page': '',
    });
    expect(Object.keys(update.update.$set)).toEqual(['evz.A', 'evz.C']);
    expect(update.update.$unset).toEqual({ 'ev.A': '', 'ev.C': '' });
    expect(decoded((update.update.$set['evz.A'] as Binary).value()).words).toEqual(a.words);
    expect(decoded((update.update.$set['evz.C'] as Binary).value()).words).toEqual(b.words);
  });

  it('ORs a late sketch into the compacted one: the same words and estimate as the union', () => {
    const early = sketchOf([...Array(300).keys()]);
    const late = sketchOf([250, 400, 401, 402]);
    const bytes = compactedSketch(late.toStoredFields(), compactedSketch(early.toStoredFields(), undefined));
    const union = sketchOf([...Array(300).keys(), 400, 401, 402]);
    expect(decoded(bytes).words).toEqual(union.words);
    expect(decoded(bytes).estimate()).toBe(union.estimate());
  });

  it('reads back a saturated sketch, coded in its dense form', () => {
    const full = sketchOf([...Array(40_000).keys()]);
    expect(decoded(compactedSketch(full.toStoredFields(), undefined)).estimate()).toBe(full.estimate());
  });
});

describe('mergeOperation of an event document', () => {
  it('ORs a compacted event sketch into the target as its register fields', () => {
    const sketch = sketchOf([11, 12, 13]);
    const operation = mergeOperation(
      { _id: 'x', evz: { Signup: new Binary(compactedSketch(undefined, sketch.toPacked())) } },
      'idOnly',
    );
    const bits = Object.fromEntries(
      Object.entries(sketch.toStoredFields()).map(([register, word]) => [`ev.Signup.${register}`, { or: word }]),
    );
    expect(operation).toEqual({ updateOne: { filter: { _id: 'x' }, update: { $bit: bits }, upsert: true } });
  });
});
