import { changedPoints, liveSeriesKey, liveWindowRequest } from '../../../src/query/LiveSeries';
import type { LiveGranularity, LiveSeriesSpec } from '../../../src/query/LiveSeries';
import { LiveSubscription } from '../../../src/query/LiveSubscription';
import { parseLiveSeriesRequest } from '../../../src/query/parseLiveSeriesRequest';
import type { Series } from '../../../src/query/Series';
import { Granularity } from '../../../src/time/Granularity';

const ms = (iso: string): number => Date.parse(iso);
const iso = (t: number): string => new Date(t).toISOString();
const spec: LiveSeriesSpec = { site: 's', page: '/p', granularity: Granularity.SECOND, windowMs: 3_000 };

/** A series of the window starting at `from` (one-second buckets) with these counts. */
function series(from: string, counts: number[]): Series {
  const start = ms(from);
  const points = counts.map((hits, i) => ({ t: start + i * 1000, hits }));
  const request = {
    site: 's',
    page: '/p',
    granularity: Granularity.SECOND,
    from: start,
    to: start + counts.length * 1000,
  };
  return { request, from: start, to: request.to, total: counts.reduce((a, b) => a + b, 0), points };
}

describe('liveWindowRequest', () => {
  it.each([
    // granularity, window ms, now, from, to
    [Granularity.SECOND, 300_000, '2026-11-21T12:00:00.400Z', '2026-11-21T11:55:01.000Z', '2026-11-21T12:00:01.000Z'],
    [Granularity.SECOND, 1_000, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z'],
    [Granularity.MINUTE, 3_600_000, '2026-01-01T00:10:30.000Z', '2025-12-31T23:11:00.000Z', '2026-01-01T00:11:00.000Z'],
    // A window that is not a whole number of minutes rounds up to one more bucket.
    [Granularity.MINUTE, 90_000, '2026-01-01T00:10:30.000Z', '2026-01-01T00:09:00.000Z', '2026-01-01T00:11:00.000Z'],
  ])('%s over %d ms at %s covers [%s, %s)', (granularity, windowMs, now, from, to) => {
    const request = liveWindowRequest({ ...spec, granularity: granularity as LiveGranularity, windowMs }, ms(now));
    expect(iso(request.from)).toBe(from);
    expect(iso(request.to)).toBe(to);
  });
});

describe('live visitors', () => {
  it('ask for minute sketches from the retention edge at each poll, and only when selected', () => {
    const watched = parseLiveSeriesRequest(
      { site: 's', page: '/p', granularity: Granularity.MINUTE, window: 3_600, visitors: true },
      { maxBuckets: 10_000, secondsRetentionMs: 48 * 3_600_000 },
    );
    expect(liveWindowRequest(watched, ms('2026-11-21T12:00:30Z')).visitors).toEqual({
      minutesFrom: ms('2026-11-19T12:01:00Z'),
    });
    const plain = parseLiveSeriesRequest(
      { site: 's', page: '/p', granularity: Granularity.MINUTE, window: 3_600 },
      { maxBuckets: 10_000, secondsRetentionMs: 48 * 3_600_000 },
    );
    expect(liveWindowRequest(plain, ms('2026-11-21T12:00:30Z')).visitors).toBeUndefined();
    expect(liveSeriesKey(watched)).not.toBe(liveSeriesKey(plain));
  });
});

describe('live visits', () => {
  const retention = { maxBuckets: 10_000, secondsRetentionMs: 48 * 3_600_000 };
  const ask = (granularity: LiveGranularity, limits: Parameters<typeof parseLiveSeriesRequest>[1]) =>
    parseLiveSeriesRequest({ site: 's', page: '/p', granularity, window: 3_600, visits: true }, limits);

  it('read minute visit counters from the retention edge at each poll, at MINUTE, when selected', () => {
    const watched = ask(Granularity.MINUTE, retention);
    expect(watched.visits).toEqual({ secondsRetentionMs: 48 * 3_600_000 });
    expect(liveWindowRequest(watched, ms('2026-11-21T12:00:30Z'))).toMatchObject({
      visits: true,
      visitMinutesFrom: ms('2026-11-19T12:01:00Z'),
    });
    const plain = parseLiveSeriesRequest(
      { site: 's', page: '/p', granularity: Granularity.MINUTE, window: 3_600 },
      retention,
    );
    expect(liveWindowRequest(plain, ms('2026-11-21T12:00:30Z')).visits).toBeUndefined();
    expect(liveSeriesKey(watched)).not.toBe(liveSeriesKey(plain));
  });

  it.each([
    ['SECOND', Granularity.SECOND, retention],
    ['VISITS_ENABLED=false', Granularity.MINUTE, { ...retention, visits: false }],
    ['SECONDS_ENABLED=false', Granularity.MINUTE, { maxBuckets: 10_000 }],
  ] as const)('are not read at %s (the figures stay null)', (_label, granularity, limits) => {
    const spec = ask(granularity, limits);
    expect(spec.visits).toBeUndefined();
    expect(liveWindowRequest(spec, ms('2026-11-21T12:00:30Z')).visits).toBeUndefined();
  });

  it('list a bucket whose visit counters changed though its hits did not, and not one without visits', () => {
    const some = { visits: 1, entered: 1, bounces: 1, seconds: 0, pageviews: 1, exits: 0 };
    const none = { visits: 0, entered: 0, bounces: 0, seconds: 0, pageviews: 0, exits: 0 };
    const known = new Map([
      [1000, { t: 1000, hits: 1, visits: some }],
      [2000, { t: 2000, hits: 2, visits: some }],
      [3000, { t: 3000, hits: 0, visits: null }],
    ]);
    expect(
      changedPoints(known, [
        { t: 1000, hits: 1, visits: { ...some } },
        // A later pageview of the visit started here: no hit in this minute, its counters change.
        { t: 2000, hits: 2, visits: { ...some, bounces: 0, pageviews: 2, seconds: 70 } },
        { t: 3000, hits: 0, visits: none },
        // A new bucket without visits is not listed, as one without hits is not.
        { t: 4000, hits: 0, visits: none },
      ]),
    ).toEqual([
      { t: 2000, hits: 2, visits: { ...some, bounces: 0, pageviews: 2, seconds: 70 } },
      { t: 3000, hits: 0, visits: none },
    ]);
  });
});

describe('changedPoints', () => {
  it('lists the buckets whose counts differ, treating unknown buckets as 0', () => {
    const known = new Map([
      [1000, { t: 1000, hits: 1 }],
      [2000, { t: 2000, hits: 2 }],
    ]);
    expect(
      changedPoints(known, [
        { t: 1000, hits: 1 },
        { t: 2000, hits: 5 },
        { t: 3000, hits: 0 },
        { t: 4000, hits: 1 },
      ]),
    ).toEqual([
      { t: 2000, hits: 5 },
      { t: 4000, hits: 1 },
    ]);
  });

  it('lists the buckets whose visitors changed though their hits did not', () => {
    const known = new Map([
      [1000, { t: 1000, hits: 3, visitors: 2 }],
      [2000, { t: 2000, hits: 2, visitors: 1 }],
    ]);
    expect(
      changedPoints(known, [
        { t: 1000, hits: 3, visitors: 3 },
        { t: 2000, hits: 2, visitors: 1 },
      ]),
    ).toEqual([{ t: 1000, hits: 3, visitors: 3 }]);
  });
});

describe('LiveSubscription', () => {
  it('hands out the snapshot first, then only changed buckets with absolute counts', async () => {
    const subscription = new LiveSubscription(spec, () => undefined);
    subscription.offer(series('2026-11-21T12:00:00Z', [0, 1, 0]));
    expect(await subscription.next()).toMatchObject({
      done: false,
      value: { snapshot: true, total: 1, points: [{ hits: 0 }, { hits: 1 }, { hits: 0 }] },
    });
    subscription.offer(series('2026-11-21T12:00:00Z', [0, 1, 0]));
    subscription.offer(series('2026-11-21T12:00:01Z', [1, 0, 4]));
    expect(await subscription.next()).toEqual({
      done: false,
      value: {
        spec,
        snapshot: false,
        from: ms('2026-11-21T12:00:01Z'),
        to: ms('2026-11-21T12:00:04Z'),
        total: 5,
        points: [{ t: ms('2026-11-21T12:00:03Z'), hits: 4 }],
      },
    });
  });

  it('merges updates a slow reader has not read yet, keeping one message and the newest counts', async () => {
    const subscription = new LiveSubscription(spec, () => undefined);
    subscription.offer(series('2026-11-21T12:00:00Z', [0, 0, 0]));
    await subscription.next();
    subscription.offer(series('2026-11-21T12:00:00Z', [1, 0, 0]));
    subscription.offer(series('2026-11-21T12:00:00Z', [2, 3, 0]));
    subscription.offer(series('2026-11-21T12:00:01Z', [3, 0, 9]));
    const { value } = await subscription.next();
    expect(value).toMatchObject({ snapshot: false, from: ms('2026-11-21T12:00:01Z'), total: 12 });
    // 12:00:00 left the window; 12:00:01 and 12:00:03 changed.
    expect(value?.points).toEqual([
      { t: ms('2026-11-21T12:00:01Z'), hits: 3 },
      { t: ms('2026-11-21T12:00:03Z'), hits: 9 },
    ]);
  });

  it('sends nothing when nothing changed', async () => {
    const subscription = new LiveSubscription(spec, () => undefined);
    subscription.offer(series('2026-11-21T12:00:00Z', [1, 0, 0]));
    await subscription.next();
    subscription.offer(series('2026-11-21T12:00:00Z', [1, 0, 0]));
    let settled = false;
    void subscription.next().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    await subscription.return();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(true);
  });

  it('ends a waiting reader and reports its end exactly once', async () => {
    const ended = jest.fn();
    const subscription = new LiveSubscription(spec, ended);
    const waiting = subscription.next();
    subscription.end();
    subscription.end();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(await subscription.next()).toEqual({ value: undefined, done: true });
    expect(ended).toHaveBeenCalledTimes(1);
  });
});

describe('parseLiveSeriesRequest', () => {
  const limits = { maxBuckets: 10_000, secondsRetentionMs: 48 * 3_600_000 };
  const input = (granularity: Granularity.SECOND | Granularity.MINUTE, window: number) => ({
    site: 's',
    page: '/p',
    granularity,
    window,
  });

  it('accepts a window within its bounds', () => {
    expect(parseLiveSeriesRequest(input(Granularity.SECOND, 300), limits)).toEqual({
      site: 's',
      page: '/p',
      granularity: Granularity.SECOND,
      windowMs: 300_000,
      timeZone: 'UTC',
    });
  });

  it.each([
    [Granularity.SECOND, 0, limits, 'window must be an integer from 1 to 3600 seconds for granularity SECOND, got 0'],
    [
      Granularity.SECOND,
      3601,
      limits,
      'window must be an integer from 1 to 3600 seconds for granularity SECOND, got 3601',
    ],
    [
      Granularity.MINUTE,
      30,
      limits,
      'window must be an integer from 60 to 86400 seconds for granularity MINUTE, got 30',
    ],
    [
      Granularity.SECOND,
      60,
      { maxBuckets: 10_000 },
      'granularity SECOND needs second-level counters, which are switched off on this server (SECONDS_ENABLED=false); use MINUTE or coarser',
    ],
  ])('rejects %s with window %d', (granularity, window, withLimits, message) => {
    expect(() => parseLiveSeriesRequest(input(granularity as LiveGranularity, window), withLimits)).toThrow(message);
  });

  it('rejects a bad page with the same message as everywhere', () => {
    expect(() => parseLiveSeriesRequest({ ...input(Granularity.MINUTE, 60), page: 'x' }, limits)).toThrow(
      'page must start with "/", got "x"',
    );
  });
});

describe('live series in a time zone', () => {
  it('passes the zone to the window request (Kathmandu minutes are UTC minutes)', () => {
    const spec: LiveSeriesSpec = {
      site: 's',
      page: '/p',
      granularity: Granularity.MINUTE,
      windowMs: 120_000,
      timeZone: 'Asia/Kathmandu',
    };
    expect(liveWindowRequest(spec, Date.parse('2026-06-01T10:10:30Z'))).toMatchObject({
      from: Date.parse('2026-06-01T10:09:00Z'),
      to: Date.parse('2026-06-01T10:11:00Z'),
      timeZone: 'Asia/Kathmandu',
    });
  });

  it('refuses an unknown zone, naming it', () => {
    expect(() =>
      parseLiveSeriesRequest(
        { site: 's', page: '/p', granularity: Granularity.MINUTE, window: 300, timeZone: 'Asia/Nowhere' },
        { maxBuckets: 10_000 },
      ),
    ).toThrow('timeZone must be an IANA time zone name such as "Europe/Berlin" or "UTC", got "Asia/Nowhere"');
  });
});
