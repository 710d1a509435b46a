import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'The outcome of an impression batch: all of it was acknowledged, or none was written.' })
export class RecordImpressionsPayload {
  @Field(() => Int, { description: 'Number of ImpressionInputs accepted.' })
  accepted!: number;

  @Field(() => GraphQLSafeInt, { description: 'Sum of their counts.' })
  total!: number;

  @Field(() => Int, { description: 'Distinct (user, item) pairs incremented: duplicates in the batch were summed.' })
  pairs!: number;

  @Field(() => Int, { description: 'Distinct items whose totals were incremented.' })
  items!: number;
}
