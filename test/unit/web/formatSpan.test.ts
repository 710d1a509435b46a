import { formatClock, formatSpan } from '../../../web/dashboard/formatSpan';

const t = (iso: string): number => Date.parse(iso);

describe('spans in words', () => {
  it.each([
    ['2026-11-21T00:00:00Z', '2026-11-23T00:00:00Z', '21 Nov – 22 Nov UTC'],
    ['2026-11-22T00:00:00Z', '2026-11-23T00:00:00Z', '22 Nov UTC'],
    ['2026-02-28T00:00:00Z', '2026-03-02T00:00:00Z', '28 Feb – 1 Mar UTC'],
    ['2025-12-30T00:00:00Z', '2026-01-02T00:00:00Z', '30 Dec 2025 – 1 Jan 2026 UTC'],
    ['2026-11-22T14:03:00Z', '2026-11-22T15:04:00Z', '22 Nov 14:03 – 15:04 UTC'],
    ['2026-11-21T15:00:00Z', '2026-11-22T16:00:00Z', '21 Nov 15:00 – 22 Nov 16:00 UTC'],
    ['2026-11-22T23:00:00Z', '2026-11-23T00:00:00Z', '22 Nov 23:00 – 00:00 UTC'],
  ])('[%s, %s) is %s', (from, to, text) => {
    expect(formatSpan(t(from), t(to))).toBe(text);
  });

  it('writes an instant as a UTC clock time', () => {
    expect(formatClock(t('2026-11-22T14:03:09.500Z'))).toBe('14:03:09 UTC');
  });
});
