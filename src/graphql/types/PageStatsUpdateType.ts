import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';
import { Granularity } from './GranularityEnum';
import { SeriesPointType } from './SeriesPointType';
import { VisitFiguresFields } from './VisitFiguresFields';

@ObjectType('PageStatsUpdate', {
  description:
    "One message of a live series: first a snapshot of the whole window, then only the buckets whose counts changed (absolute counts). A client keeps a map from bucket start to count, drops buckets before `from`, and treats buckets it has not seen as 0. Its visit figures (`visits`, `bounceRate`, `visitDuration`, `viewsPerVisit`) are the whole window's, sent with every message: at MINUTE from the per-minute visit counters, null at SECOND and when a bucket of the window has none (see pageStatsLive).",
})
export class PageStatsUpdateType extends VisitFiguresFields {
  @Field({ description: 'The site, as recorded.' })
  site!: string;

  @Field({ description: 'The page path, as recorded.' })
  page!: string;

  @Field(() => Granularity, { description: 'Bucket size.' })
  granularity!: Granularity;

  @Field({ description: 'True for the first message, whose points are every bucket of the window.' })
  snapshot!: boolean;

  @Field(() => DateTimeScalar, { description: 'Start of the first bucket of the window; the window slides with time.' })
  from!: Date;

  @Field(() => DateTimeScalar, {
    description: 'End of the last bucket of the window (exclusive); that bucket holds now.',
  })
  to!: Date;

  @Field(() => GraphQLSafeInt, { description: 'Sum of every bucket of the window (not only of `points`).' })
  total!: number;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description:
      "Distinct visitors of the whole window, from the per-minute sketches (standard error 4.1 %), over [visitorsFrom, visitorsTo): the window's minutes, widened to whole minutes (SECOND) or to UTC days where minutes are not kept. Sent with every message.",
  })
  visitors!: number | null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'Start of the span `visitors` counts.' })
  visitorsFrom!: Date | null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'End of the span `visitors` counts (exclusive).' })
  visitorsTo!: Date | null;

  @Field(() => [SeriesPointType], {
    description: 'Snapshot: every bucket. Later: the buckets whose counts changed since the previous message.',
  })
  points!: SeriesPointType[];
}
