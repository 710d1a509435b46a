import { ImpressionBatch } from '../../../src/store/ImpressionBatch';

describe('ImpressionBatch', () => {
  it('sums repeated pairs and items instead of counting them once', () => {
    const batch = ImpressionBatch.of([
      { userId: 'u1', itemId: 'i1', count: 1 },
      { userId: 'u1', itemId: 'i1', count: 2 },
      { userId: 'u2', itemId: 'i1', count: 1 },
      { userId: 'u1', itemId: 'i2', count: 5 },
    ]);
    expect(batch.pairCounts()).toEqual([
      { userId: 'u1', itemId: 'i1', count: 3 },
      { userId: 'u1', itemId: 'i2', count: 5 },
      { userId: 'u2', itemId: 'i1', count: 1 },
    ]);
    expect(batch.itemCounts()).toEqual([
      { itemId: 'i1', count: 4 },
      { itemId: 'i2', count: 5 },
    ]);
    expect({ pairs: batch.pairCount, items: batch.itemCount, total: batch.total }).toEqual({
      pairs: 3,
      items: 2,
      total: 9,
    });
  });

  it('keeps pairs apart whose concatenated ids would be equal', () => {
    const batch = ImpressionBatch.of([
      { userId: 'ab', itemId: 'c', count: 1 },
      { userId: 'a', itemId: 'bc', count: 1 },
    ]);
    expect(batch.pairCount).toBe(2);
  });

  it('writes one $inc upsert per distinct pair and item, starting new documents at the batch count', () => {
    const impressions = Array.from({ length: 1000 }, (_, n) => ({
      userId: `u${n % 10}`,
      itemId: `i${n % 7}`,
      count: 1,
    }));
    const batch = ImpressionBatch.of(impressions);
    const pairOps = batch.pairOperations('shardKey');
    expect(pairOps).toHaveLength(70);
    expect(batch.itemOperations()).toHaveLength(7);
    expect(pairOps[0]).toEqual({
      updateOne: { filter: { _id: 'u0\u001fi0', u: 'u0', i: 'i0' }, update: { $inc: { c: 15 } }, upsert: true },
    });
    expect(batch.itemOperations()[0]).toEqual({
      updateOne: { filter: { _id: 'i0' }, update: { $inc: { c: 143 } }, upsert: true },
    });
  });

  it('targets a pair by _id alone for FerretDB and sets u and i on insert instead', () => {
    const [op] = ImpressionBatch.of([{ userId: 'u', itemId: 'i', count: 2 }]).pairOperations('idOnly');
    expect(op).toEqual({
      updateOne: {
        filter: { _id: 'u\u001fi' },
        update: { $setOnInsert: { u: 'u', i: 'i' }, $inc: { c: 2 } },
        upsert: true,
      },
    });
  });

  it('refuses ids holding the separator rather than risk two pairs sharing an _id', () => {
    expect(() => ImpressionBatch.of([{ userId: 'a\u001fb', itemId: 'c', count: 1 }]).pairOperations('idOnly')).toThrow(
      'impression ids must not contain U+001F: ["a\\u001fb","c"]',
    );
  });
});
