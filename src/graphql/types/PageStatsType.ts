import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';
import { Granularity } from './GranularityEnum';
import { SeriesPointType } from './SeriesPointType';

@ObjectType('PageStats', {
  description: 'A dense hit series for one page: every bucket that intersects the range, zeros included.',
})
export class PageStatsType {
  @Field({ description: 'The site, as recorded.' })
  site!: string;

  @Field({ description: 'The page path, as recorded.' })
  page!: string;

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
}
