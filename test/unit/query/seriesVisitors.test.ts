import fc from 'fast-check';
import type { Document } from 'mongodb';
import { SITE_TOTAL_PAGE } from '../../../src/domain/siteTotal';
import { VISITOR_PRECISION } from '../../../src/domain/visitors/VisitorPrecision';
import type { DocumentLookup } from '../../../src/query/DocumentLookup';
import { fillSeries } from '../../../src/query/fillSeries';
import type { PeriodPiece } from '../../../src/query/periodPieces';
import { planSeries } from '../../../src/query/planSeries';
import type { SeriesRequest } from '../../../src/query/Series';
import { DAILY_COLLECTION } from '../../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../../src/store/monthlyStats';
import { SECONDS_COLLECTION } from '../../../src/store/secondStats';
import { Granularity } from '../../../src/time/Granularity';
import { directEstimate, distinctVisitors, hitsIn, seedDocuments } from '../../support/seedStats';
import type { SeedHit } from '../../support/seedStats';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SPAN_FROM = Date.parse('2026-02-20T00:00:00Z');
const SPAN_TO = Date.parse('2026-03-12T00:00:00Z');
/** Minute sketches exist from here on (the last two days of the span). */
const MINUTES_FROM = SPAN_TO - 2 * DAY;

function lookupOf(hits: readonly SeedHit[], site: string, page: string): DocumentLookup {
  const docs = seedDocuments(hits, { minuteSketchesFrom: MINUTES_FROM });
  const index = (collection: string): Map<number, Document> =>
    new Map(
      (docs.get(collection) ?? [])
        .filter((doc) => doc.metadata.site === site && doc.metadata.page === page)
        .map((doc) => [(doc.metadata.date as Date).getTime(), doc]),
    );
  const daily = index(DAILY_COLLECTION);
  const monthly = index(MONTHLY_COLLECTION);
  const seconds = index(SECONDS_COLLECTION);
  return {
    daily: (t) => daily.get(t) as ReturnType<DocumentLookup['daily']>,
    monthly: (t) => monthly.get(t) as ReturnType<DocumentLookup['monthly']>,
    seconds: (t) => seconds.get(t) as ReturnType<NonNullable<DocumentLookup['seconds']>>,
  };
}

function precisionOf(pieces: readonly PeriodPiece[], page: string): number {
  if (pieces.some((piece) => piece.level === 'minute')) return VISITOR_PRECISION.minute;
  return page === SITE_TOTAL_PAGE ? VISITOR_PRECISION.siteDay : VISITOR_PRECISION.pageDay;
}

const hitArbitrary = (pages: readonly string[]) =>
  fc.record({
    site: fc.constant('s'),
    page: fc.constantFrom(...pages),
    at: fc.integer({ min: SPAN_FROM, max: SPAN_TO - 1 }),
    // Few visitors, so the same one returns on several days and the union must not count them twice.
    visitor: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
  });

describe('series visitors', () => {
  it('equal, per answered bucket and for the range, the sketch of the same visitors built directly', () => {
    fc.assert(
      fc.property(
        fc.array(hitArbitrary(['/a', '/b']), { maxLength: 150 }),
        fc.constantFrom('/a', SITE_TOTAL_PAGE),
        fc.constantFrom(Granularity.MINUTE, Granularity.HOUR, Granularity.DAY, Granularity.WEEK, Granularity.MONTH),
        fc.constantFrom('UTC', 'Europe/Berlin', 'Asia/Kolkata', 'Asia/Kathmandu'),
        fc.integer({ min: SPAN_FROM, max: SPAN_TO - 1 }),
        fc.integer({ min: 1, max: 4 * DAY }),
        (hits, page, granularity, timeZone, from, length) => {
          const width = granularity === Granularity.MINUTE ? HOUR : granularity === Granularity.HOUR ? DAY : 30 * DAY;
          const request: SeriesRequest = {
            site: 's',
            page,
            granularity,
            from,
            to: Math.min(from + Math.min(length, width), SPAN_TO),
            timeZone,
            visitors: { minutesFrom: MINUTES_FROM },
          };
          if (request.to <= request.from) return;
          const plan = planSeries(request);
          const series = fillSeries(request, plan, lookupOf(hits, 's', page));
          plan.visitorPieces?.forEach((pieces, i) => {
            const point = series.points[i];
            if (pieces === undefined) {
              expect(point?.visitors).toBeNull();
              return;
            }
            const start = plan.bucketStarts[i] as number;
            const end = plan.bucketStarts[i + 1] ?? plan.end;
            const inBucket = hitsIn(hits, { site: 's', page, from: start, to: end });
            expect(point?.visitors).toBe(directEstimate(inBucket, precisionOf(pieces, page)));
          });
          const range = series.visitors;
          if (!range) throw new Error('range visitors missing');
          const pieces = plan.visitorCover?.pieces ?? plan.visitorPieces?.flatMap((p) => p ?? []) ?? [];
          const inRange = hitsIn(hits, { site: 's', page, from: range.from, to: range.to });
          expect(range.visitors).toBe(directEstimate(inRange, precisionOf(pieces, page)));
          expect(range.from).toBeLessThanOrEqual(series.from);
          expect(range.to).toBeGreaterThanOrEqual(series.to);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('count a visitor who returns on several days once over the range, and once per day', () => {
    const hits: SeedHit[] = [0, 1, 2].flatMap((day) =>
      [1, 2, 3].map((visitor) => ({ site: 's', page: '/a', at: SPAN_FROM + day * DAY + visitor * HOUR, visitor })),
    );
    const request: SeriesRequest = {
      site: 's',
      page: '/a',
      granularity: Granularity.DAY,
      from: SPAN_FROM,
      to: SPAN_FROM + 3 * DAY,
      visitors: {},
    };
    const series = fillSeries(request, planSeries(request), lookupOf(hits, 's', '/a'));
    expect(series.points.map((point) => point.visitors)).toEqual([3, 3, 3]);
    expect(series.visitors).toEqual({ visitors: 3, from: SPAN_FROM, to: SPAN_FROM + 3 * DAY });
    expect(distinctVisitors(hits)).toBe(3);
  });

  it('leaves visitors out entirely when they were not asked for', () => {
    const request: SeriesRequest = {
      site: 's',
      page: '/a',
      granularity: Granularity.DAY,
      from: SPAN_FROM,
      to: SPAN_TO,
    };
    const series = fillSeries(request, planSeries(request), lookupOf([], 's', '/a'));
    expect(series.visitors).toBeUndefined();
    expect(series.points.every((point) => !('visitors' in point))).toBe(true);
  });
});
