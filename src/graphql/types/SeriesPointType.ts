import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';

@ObjectType('SeriesPoint', { description: 'One bucket of a series.' })
export class SeriesPointType {
  @Field(() => DateTimeScalar, { description: 'Start of the bucket (UTC).' })
  t!: Date;

  @Field(() => GraphQLSafeInt, { description: 'Hits in the bucket; exact up to 2^53 - 1.' })
  hits!: number;
}
