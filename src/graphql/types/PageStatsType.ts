import { GraphQLSafeInt } from 'graphql-scalars';
import { VisitFiguresFields } from './VisitFiguresFields';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';
import { Granularity } from './GranularityEnum';
import { SeriesComparisonType } from './SeriesComparisonType';
import { SeriesPointType } from './SeriesPointType';

@ObjectType('PageStats', {
  description:
    'A dense hit series for one page or a whole site: every bucket that intersects the range, zeros included.',
})
export class PageStatsType extends VisitFiguresFields {
  @Field({ description: 'The site, as recorded.' })
  site!: string;

  @Field({ description: 'The page path, as recorded; the empty string for site totals (siteStats).' })
  page!: string;

  @Field({ description: 'IANA time zone the buckets follow ("UTC" unless the query named one).' })
  timeZone!: string;

  @Field(() => Granularity, { description: 'Bucket size.' })
  granularity!: Granularity;

  @Field(() => DateTimeScalar, {
    description: 'Start of the first bucket: range.from rounded down to the granularity.',
  })
  from!: Date;

  @Field(() => DateTimeScalar, {
    description: 'End of the last bucket (exclusive): the first bucket start at or after range.to.',
  })
  to!: Date;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description: 'Sum of all points; null when a point is (its counters were dropped by retention).',
  })
  total!: number | null;

  @Field(() => [SeriesPointType], { description: 'One point per bucket, in time order.' })
  points!: SeriesPointType[];

  @Field(() => [GraphQLSafeInt], {
    nullable: 'items',
    description: 'The same counts as `points`, as a compact list for charting libraries (null where a point is).',
  })
  values!: Array<number | null>;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description:
      "Distinct visitors over the span [visitorsFrom, visitorsTo): the series' own [from, to) when it is a union of stored sketch periods (whole UTC months and days, whole UTC minutes inside the second-level retention), else the smallest such union covering it. Estimated from sketches (standard error 0.72 % for site totals, 1.44 % for a page, 4.1 % where minutes are read; small counts come out near-exact). Null for a filtered page series (per-value sketches are kept for site totals only) and for a filtered site series whose dimension is not in DIMENSION_VISITORS.",
  })
  visitors!: number | null;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description:
      'Start of the span `visitors` counts: `from` itself, or earlier when the stored periods must cover more.',
  })
  visitorsFrom!: Date | null;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: 'End of the span `visitors` counts (exclusive): `to` itself, or later.',
  })
  visitorsTo!: Date | null;

  @Field(() => SeriesComparisonType, {
    nullable: true,
    description: 'The earlier series asked for with `compare`; null when none was.',
  })
  comparison!: SeriesComparisonType | null;
}
