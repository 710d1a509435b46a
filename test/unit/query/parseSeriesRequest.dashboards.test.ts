import { parseSeriesRequest } from '../../../src/query/parseSeriesRequest';
import type { SeriesLimits } from '../../../src/query/parseSeriesRequest';
import { Granularity } from '../../../src/time/Granularity';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const input = (over: Partial<Parameters<typeof parseSeriesRequest>[0]> = {}) => ({
  site: 's',
  granularity: Granularity.DAY,
  from: new Date('2026-03-01T00:00:00Z'),
  to: new Date('2026-03-08T00:00:00Z'),
  ...over,
});
const limits: SeriesLimits = { maxBuckets: 10_000, secondsRetentionMs: 48 * 3_600_000 };

describe('parseSeriesRequest for site totals and time zones', () => {
  it('reads the site total document when no page is given, in the named zone', () => {
    expect(parseSeriesRequest(input({ timeZone: 'Asia/Kathmandu' }), limits, NOW)).toMatchObject({
      site: 's',
      page: '',
      timeZone: 'Asia/Kathmandu',
    });
  });

  it.each([
    [
      input({ timeZone: 'Moon/Tranquility' }),
      limits,
      'timeZone must be an IANA time zone name such as "Europe/Berlin" or "UTC", got "Moon/Tranquility"',
    ],
    [
      input({ timeZone: '' }),
      limits,
      'timeZone must be an IANA time zone name such as "Europe/Berlin" or "UTC", got ""',
    ],
    [
      input(),
      { ...limits, siteTotals: false },
      'site totals are switched off on this server (SITE_TOTALS_ENABLED=false); query pageStats per page',
    ],
    [
      input({ granularity: Granularity.SECOND, from: new Date(NOW - 60_000), to: new Date(NOW) }),
      limits,
      'granularity SECOND is kept per page only; site totals go down to MINUTE, got SECOND',
    ],
  ])('rejects %j', (request, requestLimits, message) => {
    expect(() => parseSeriesRequest(request, requestLimits, NOW)).toThrow(
      expect.objectContaining({ code: 'BAD_USER_INPUT', message }),
    );
  });

  it('counts zoned buckets against the limit, and names the setting it comes from', () => {
    // 168 UTC hours, but Lord Howe's half-hour change adds a 30-minute bucket: the limit counts zoned buckets.
    const request = input({
      page: '/p',
      granularity: Granularity.HOUR,
      timeZone: 'Australia/Lord_Howe',
      from: new Date('2026-10-01T00:00:00Z'),
      to: new Date('2026-10-08T00:00:00Z'),
    });
    expect(() =>
      parseSeriesRequest(request, { ...limits, maxBuckets: 168, maxBucketsSetting: 'EXPORT_MAX_BUCKETS' }, NOW),
    ).toThrow(
      expect.objectContaining({
        code: 'LIMIT_EXCEEDED',
        message:
          'the number of HOUR buckets in range is 169, more than the limit of 168 (EXPORT_MAX_BUCKETS); use a coarser granularity or a shorter range',
        limit: 'EXPORT_MAX_BUCKETS',
        max: 168,
        value: 169,
        field: 'range',
      }),
    );
  });
});
