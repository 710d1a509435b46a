import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';

@ObjectType('SeriesPoint', { description: 'One bucket of a series.' })
export class SeriesPointType {
  @Field(() => DateTimeScalar, { description: 'Start of the bucket (UTC).' })
  t!: Date;

  @Field({
    description:
      'Start of the bucket in the series time zone, ISO-8601 with that offset, e.g. "2026-03-29T03:00:00+02:00".',
  })
  local!: string;

  @Field(() => GraphQLSafeInt, { description: 'Hits in the bucket; exact up to 2^53 - 1.' })
  hits!: number;
}
