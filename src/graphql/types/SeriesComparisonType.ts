import { GraphQLSafeInt } from 'graphql-scalars';
import { VisitFiguresFields } from './VisitFiguresFields';
import { Field, Float, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';
import { Comparison } from './ComparisonEnum';
import { SeriesPointType } from './SeriesPointType';

@ObjectType('SeriesComparison', {
  description: 'The earlier series a series is compared with, in the same granularity and time zone.',
})
export class SeriesComparisonType extends VisitFiguresFields {
  @Field(() => Comparison, { description: 'Which earlier series this is.' })
  kind!: Comparison;

  @Field(() => DateTimeScalar, { description: 'Start of its first bucket.' })
  from!: Date;

  @Field(() => DateTimeScalar, { description: 'End of its last bucket (exclusive).' })
  to!: Date;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description: 'Sum of its points; null when a point is (its counters were dropped by retention).',
  })
  total!: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      'Relative change of the current total against this one: (current - earlier) / earlier, e.g. 0.25 for +25 %. Null when the earlier total is 0 or either total is null.',
  })
  change!: number | null;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description: 'Distinct visitors of the earlier series, by the same rules as PageStats.visitors.',
  })
  visitors!: number | null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'Start of the span its `visitors` counts.' })
  visitorsFrom!: Date | null;

  @Field(() => DateTimeScalar, { nullable: true, description: 'End of the span its `visitors` counts (exclusive).' })
  visitorsTo!: Date | null;

  @Field(() => Float, {
    nullable: true,
    description:
      'Relative change of the current visitors against these: (current - earlier) / earlier. Null when either is null or the earlier is 0.',
  })
  visitorsChange!: number | null;

  @Field(() => [SeriesPointType], {
    description: 'One point per bucket, in time order (PREVIOUS_PERIOD: as many as the current series).',
  })
  points!: SeriesPointType[];

  @Field(() => [GraphQLSafeInt], {
    nullable: 'items',
    description: 'The same counts as `points`, as a compact list (null where a point is).',
  })
  values!: Array<number | null>;
}
