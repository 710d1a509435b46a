import { FileIdentity, IDENTITY_PREFIX_BYTES } from '../../../src/logimport/FileIdentity';
import { HitBatchBuilder } from '../../../src/logimport/HitBatch';

describe('HitBatchBuilder', () => {
  it('sums hits of the same site, page and instant, and keys the batch by file and line range', () => {
    const builder = new HitBatchBuilder(5_001);
    const hit = { site: 'example.com', page: '/a', at: 1_000, count: 1 };
    builder.add(hit);
    builder.add(hit);
    builder.add({ ...hit, at: 2_000 });
    builder.add({ ...hit, page: '/b' });
    expect(builder.take('f00d', 'access.log', 10_000)).toEqual({
      idempotencyKey: 'tally-import:v1:f00d:5001-10000',
      file: 'access.log',
      firstLine: 5_001,
      lastLine: 10_000,
      hits: [
        { ...hit, count: 2 },
        { ...hit, at: 2_000 },
        { ...hit, page: '/b' },
      ],
      total: 4,
    });
  });
});

describe('HitBatchBuilder with visitor and dimension inputs', () => {
  it('never sums hits whose visitor or dimension inputs differ', () => {
    const builder = new HitBatchBuilder(1);
    const hit = { site: 's', page: '/', at: 1_000, count: 1, visitor: 'a', userAgent: 'UA', clientIp: '1.2.3.4' };
    builder.add(hit);
    builder.add(hit);
    builder.add({ ...hit, visitor: 'b' });
    builder.add({ ...hit, userAgent: 'other' });
    builder.add({ ...hit, clientIp: '1.2.3.5' });
    builder.add({ ...hit, referrer: 'https://r.example/' });
    builder.add({ ...hit, utm: { utmSource: 'x', utmMedium: '(none)', utmCampaign: '(none)' } });
    const batch = builder.take('f', 'access.log', 7);
    expect(batch.hits.map((h) => h.count)).toEqual([2, 1, 1, 1, 1, 1]);
    expect(batch.total).toBe(7);
  });
});

describe('FileIdentity', () => {
  const content = Buffer.from('x'.repeat(IDENTITY_PREFIX_BYTES) + 'tail one');

  it('depends only on the first 64 KiB, however they are chunked', () => {
    const whole = new FileIdentity();
    expect(whole.update(content)).toBe(true);
    const pieces = new FileIdentity();
    expect(pieces.update(content.subarray(0, 1000))).toBe(false);
    expect(pieces.update(content.subarray(1000))).toBe(true);
    const otherTail = new FileIdentity();
    otherTail.update(Buffer.from('x'.repeat(IDENTITY_PREFIX_BYTES) + 'another tail'));
    expect(pieces.value).toBe(whole.value);
    expect(otherTail.value).toBe(whole.value);
  });

  it('covers a short file whole: different short contents are different files', () => {
    const a = new FileIdentity();
    a.update(Buffer.from('line 1\n'));
    const b = new FileIdentity();
    b.update(Buffer.from('line 2\n'));
    expect(a.finish()).not.toBe(b.finish());
    expect(a.finish()).toMatch(/^[0-9a-f]{24}$/);
  });
});
