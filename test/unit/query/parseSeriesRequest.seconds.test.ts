import { parseSeriesRequest } from '../../../src/query/parseSeriesRequest';
import { Granularity } from '../../../src/time/Granularity';

const ms = (iso: string): number => Date.parse(iso);
const NOW = ms('2026-11-21T12:00:00Z');
const HOURS_48 = 48 * 3_600_000;
const input = (from: string, to: string, granularity = Granularity.SECOND) => ({
  site: 's',
  page: '/p',
  granularity,
  from: new Date(from),
  to: new Date(to),
});

describe('parseSeriesRequest for SECOND', () => {
  it('accepts a range starting inside the retention window, up to its very edge', () => {
    expect(
      parseSeriesRequest(
        input('2026-11-19T12:00:00Z', '2026-11-19T12:10:00Z'),
        { maxBuckets: 10_000, secondsRetentionMs: HOURS_48 },
        NOW,
      ),
    ).toEqual({
      site: 's',
      page: '/p',
      granularity: Granularity.SECOND,
      from: ms('2026-11-19T12:00:00Z'),
      to: ms('2026-11-19T12:10:00Z'),
      timeZone: 'UTC',
    });
  });

  it.each([
    [
      '2026-11-18T00:00:00Z',
      HOURS_48,
      'range.from must be within the second-level retention window of 48 hours (after 2026-11-19T12:00:00.000Z), got 2026-11-18T00:00:00.000Z',
    ],
    [
      '2026-11-21T10:59:59.999Z',
      1 * 3_600_000,
      'range.from must be within the second-level retention window of 1 hours (after 2026-11-21T11:00:00.000Z), got 2026-11-21T10:59:59.999Z',
    ],
  ])('rejects from %s with retention %d ms, stating the window', (from, retention, message) => {
    const call = () =>
      parseSeriesRequest(
        input(from, '2026-11-21T11:30:00Z'),
        { maxBuckets: 1_000_000, secondsRetentionMs: retention },
        NOW,
      );
    expect(call).toThrow(message);
    try {
      call();
    } catch (error) {
      expect(error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'range' });
    }
  });

  it('rejects SECOND clearly when second-level counters are switched off', () => {
    expect(() =>
      parseSeriesRequest(input('2026-11-21T11:00:00Z', '2026-11-21T11:01:00Z'), { maxBuckets: 10_000 }, NOW),
    ).toThrow(
      'granularity SECOND needs second-level counters, which are switched off on this server (SECONDS_ENABLED=false); use MINUTE or coarser',
    );
  });

  it('applies the bucket limit to SECOND ranges inside the window', () => {
    expect(() =>
      parseSeriesRequest(
        input('2026-11-21T09:00:00Z', '2026-11-21T12:00:00Z'),
        { maxBuckets: 10_000, secondsRetentionMs: HOURS_48 },
        NOW,
      ),
    ).toThrow(
      expect.objectContaining({
        code: 'LIMIT_EXCEEDED',
        message:
          'the number of SECOND buckets in range is 10800, more than the limit of 10000 (QUERY_MAX_BUCKETS); use a coarser granularity or a shorter range',
        limit: 'QUERY_MAX_BUCKETS',
        field: 'range',
      }),
    );
  });

  it('leaves other granularities unaffected by the retention window', () => {
    expect(
      parseSeriesRequest(
        input('2020-01-01T00:00:00Z', '2020-01-02T00:00:00Z', Granularity.HOUR),
        { maxBuckets: 10_000 },
        NOW,
      ).granularity,
    ).toBe(Granularity.HOUR);
  });
});

describe('parseSeriesRequest with visit figures', () => {
  const range = (granularity: Granularity) => ({
    ...input('2026-11-21T11:00:00Z', '2026-11-21T12:00:00Z', granularity),
    visits: true,
  });

  it.each([
    // The first whole minute inside the retention: 48 h before now, to the minute.
    ['a retention of whole minutes', HOURS_48, ms('2026-11-19T12:00:00Z')],
    ['a retention ending inside a minute', HOURS_48 - 30_000, ms('2026-11-19T12:01:00Z')],
  ])('sums minute documents from the first surely kept minute on, with %s', (_, secondsRetentionMs, from) => {
    const request = parseSeriesRequest(range(Granularity.MINUTE), { maxBuckets: 10_000, secondsRetentionMs }, NOW);
    expect(request).toMatchObject({ visits: true, visitMinutesFrom: from });
  });

  it('reads no minute visits where minute documents are not written (SECONDS_ENABLED=false)', () => {
    const request = parseSeriesRequest(range(Granularity.MINUTE), { maxBuckets: 10_000 }, NOW);
    expect(request.visits).toBe(true);
    expect(request).not.toHaveProperty('visitMinutesFrom');
  });

  it('reads no minute visits where visits are not counted (VISITS_ENABLED=false)', () => {
    const request = parseSeriesRequest(
      range(Granularity.MINUTE),
      { maxBuckets: 10_000, secondsRetentionMs: HOURS_48, visits: false },
      NOW,
    );
    expect(request).not.toHaveProperty('visitMinutesFrom');
  });

  it('asks for no minutes when no visit figure is selected', () => {
    const request = parseSeriesRequest(
      input('2026-11-21T11:00:00Z', '2026-11-21T12:00:00Z', Granularity.MINUTE),
      { maxBuckets: 10_000, secondsRetentionMs: HOURS_48 },
      NOW,
    );
    expect(request).not.toHaveProperty('visits');
    expect(request).not.toHaveProperty('visitMinutesFrom');
  });
});
