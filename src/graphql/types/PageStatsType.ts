import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';
import { Granularity } from './GranularityEnum';
import { SeriesComparisonType } from './SeriesComparisonType';
import { SeriesPointType } from './SeriesPointType';

@ObjectType('PageStats', {
  description:
    'A dense hit series for one page or a whole site: every bucket that intersects the range, zeros included.',
})
export class PageStatsType {
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

  @Field(() => GraphQLSafeInt, { description: 'Sum of all points.' })
  total!: number;

  @Field(() => [SeriesPointType], { description: 'One point per bucket, in time order.' })
  points!: SeriesPointType[];

  @Field(() => [GraphQLSafeInt], {
    description: 'The same counts as `points`, as a compact list for charting libraries.',
  })
  values!: number[];

  @Field(() => SeriesComparisonType, {
    nullable: true,
    description: 'The earlier series asked for with `compare`; null when none was.',
  })
  comparison!: SeriesComparisonType | null;
}
