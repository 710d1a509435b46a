import fc from 'fast-check';
import type { Document } from 'mongodb';
import { DIMENSIONS } from '../../../src/domain/dimensions/Dimension';
import { packCounters } from '../../../src/domain/dimensions/packedCounters';
import { dimensionKey } from '../../../src/domain/dimensions/dimensionKey';
import { SITE_TOTAL_PAGE } from '../../../src/domain/siteTotal';
import { VISITOR_PRECISION } from '../../../src/domain/visitors/VisitorPrecision';
import type { BreakdownRequest } from '../../../src/query/Breakdown';
import type { DocumentLookup } from '../../../src/query/DocumentLookup';
import { planBreakdown } from '../../../src/query/planBreakdown';
import { sumBreakdown } from '../../../src/query/sumBreakdown';
import { DAILY_COLLECTION } from '../../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../../src/store/monthlyStats';
import { directEstimate, hitDimensions, hitsIn, seedDocuments } from '../../support/seedStats';
import type { SeedHit } from '../../support/seedStats';

const DAY = 86_400_000;
const SPAN_FROM = Date.parse('2026-01-20T00:00:00Z');
const SPAN_TO = Date.parse('2026-03-10T00:00:00Z');

/**
 * As compaction leaves a document with late hits after it: every other counter of each dimension packed in
 * `dz.<dimension>`, the rest left in `d`.
 */
function splitCounters(doc: Document): Document {
  const d: Record<string, Record<string, number>> = {};
  const dz: Record<string, Uint8Array> = {};
  for (const [dimension, counters] of Object.entries((doc.d ?? {}) as Record<string, Record<string, number>>)) {
    const entries = Object.entries(counters);
    dz[dimension] = packCounters(entries.filter((_, i) => i % 2 === 0));
    d[dimension] = Object.fromEntries(entries.filter((_, i) => i % 2 === 1));
  }
  return { ...doc, d, dz };
}

function lookupOf(hits: readonly SeedHit[], page: string, packed = false): DocumentLookup {
  const docs = seedDocuments(hits);
  const index = (collection: string): Map<number, Document> =>
    new Map(
      (docs.get(collection) ?? [])
        .filter((doc) => doc.metadata.page === page)
        .map((doc) => [(doc.metadata.date as Date).getTime(), packed ? splitCounters(doc) : doc]),
    );
  const daily = index(DAILY_COLLECTION);
  const monthly = index(MONTHLY_COLLECTION);
  return {
    daily: (t) => daily.get(t) as ReturnType<DocumentLookup['daily']>,
    monthly: (t) => monthly.get(t) as ReturnType<DocumentLookup['monthly']>,
  };
}

describe('sumBreakdown', () => {
  it('reads whole months from monthly documents and the other days from daily ones', () => {
    const request: BreakdownRequest = {
      site: 's',
      page: '/a',
      dimension: 'source',
      from: Date.parse('2026-01-30T00:00:00Z'),
      to: Date.parse('2026-03-02T00:00:00Z'),
      visitors: false,
    };
    expect(
      planBreakdown(request).reads.map((read) => [
        read.source,
        read.ranges.map(
          (r) => `${new Date(r.first).toISOString().slice(0, 10)}..${new Date(r.last).toISOString().slice(0, 10)}`,
        ),
      ]),
    ).toEqual([
      ['monthly', ['2026-02-01..2026-02-01']],
      ['hourly', ['2026-01-30..2026-01-31', '2026-03-01..2026-03-01']],
    ]);
  });

  it('equals a recount of the hits per value (from counters and packed counters alike), and per-value visitors equal their sketch built directly', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            site: fc.constant('s'),
            page: fc.constantFrom('/a', '/b'),
            at: fc.integer({ min: SPAN_FROM, max: SPAN_TO - 1 }),
            count: fc.integer({ min: 1, max: 3 }),
            visitor: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
            dimensions: fc.record({
              source: fc.constantFrom('Google', 'a.b', '(direct)'),
              device: fc.constantFrom('mobile', 'desktop'),
            }),
          }),
          { maxLength: 80 },
        ),
        fc.constantFrom('/a', SITE_TOTAL_PAGE),
        fc.constantFrom(...DIMENSIONS),
        fc.integer({ min: 0, max: 45 }),
        fc.integer({ min: 1, max: 45 }),
        fc.boolean(),
        (hits, page, dimension, startDay, days, packed) => {
          const from = SPAN_FROM + startDay * DAY;
          const request: BreakdownRequest = {
            site: 's',
            page,
            dimension,
            from,
            to: Math.min(from + days * DAY, SPAN_TO),
            visitors: page === SITE_TOTAL_PAGE && dimension === 'device',
          };
          const totals = sumBreakdown(request, planBreakdown(request), lookupOf(hits, page, packed));
          const inSpan = hitsIn(hits, { site: 's', page, from: request.from, to: request.to });
          const expected = new Map<string, number>();
          for (const hit of inSpan) {
            const key = dimensionKey(hitDimensions(hit)[dimension]);
            expected.set(key, (expected.get(key) ?? 0) + (hit.count ?? 1));
          }
          expect(totals.hits).toEqual(expected);
          if (!request.visitors) {
            expect(totals.visitorsOf).toBeUndefined();
            return;
          }
          for (const key of expected.keys()) {
            const withValue = inSpan.filter((hit) => dimensionKey(hitDimensions(hit).device) === key);
            expect(totals.visitorsOf?.(key)).toBe(directEstimate(withValue, VISITOR_PRECISION.minute));
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
