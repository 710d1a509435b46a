/** Maps a series (and the one it is compared with) to the GraphQL PageStats shape. */
import type { Series } from '../query/Series';
import { visitFiguresOf } from '../query/visitCounts';
import { formatWithOffset } from '../time/formatWithOffset';
import { UTC_ZONE } from '../time/zoneOffset';
import type { Comparison } from './types/ComparisonEnum';
import type { PageStatsType } from './types/PageStatsType';
import type { SeriesPointType } from './types/SeriesPointType';

export function toPageStats(series: Series, compared?: { kind: Comparison; series: Series }): PageStatsType {
  const zone = series.request.timeZone ?? UTC_ZONE;
  const visitors = series.visitors?.visitors ?? null;
  const earlier = compared?.series.visitors?.visitors ?? null;
  return {
    site: series.request.site,
    page: series.request.page,
    granularity: series.request.granularity,
    timeZone: zone,
    from: new Date(series.from),
    to: new Date(series.to),
    total: series.total,
    // Built only when the query selects them: a chart asking for `values` pays nothing for points.
    get points() {
      return toPoints(series, zone);
    },
    values: series.points.map((point) => point.hits),
    ...spanFields(series),
    ...visitFiguresOf(series.visits),
    comparison: compared
      ? {
          kind: compared.kind,
          from: new Date(compared.series.from),
          to: new Date(compared.series.to),
          total: compared.series.total,
          change: change(series.total, compared.series.total),
          ...spanFields(compared.series),
          ...visitFiguresOf(compared.series.visits),
          visitorsChange:
            visitors === null || earlier === null || earlier === 0 ? null : (visitors - earlier) / earlier,
          get points() {
            return toPoints(compared.series, zone);
          },
          values: compared.series.points.map((point) => point.hits),
        }
      : null,
  };
}

function change(current: number | null, earlier: number | null): number | null {
  if (current === null || earlier === null || earlier === 0) return null;
  return (current - earlier) / earlier;
}

function spanFields(series: Series): { visitors: number | null; visitorsFrom: Date | null; visitorsTo: Date | null } {
  const span = series.visitors;
  return span
    ? { visitors: span.visitors, visitorsFrom: new Date(span.from), visitorsTo: new Date(span.to) }
    : { visitors: null, visitorsFrom: null, visitorsTo: null };
}

export function toPoints(series: Series, zone: string): SeriesPointType[] {
  return series.points.map((point) => ({
    t: new Date(point.t),
    // Formatting with an offset is the costliest part of a point: done only for a query that selects `local`.
    get local() {
      return formatWithOffset(zone, point.t);
    },
    hits: point.hits,
    visitors: point.visitors ?? null,
    ...visitFiguresOf(point.visits),
  }));
}
