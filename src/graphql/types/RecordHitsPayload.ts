import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'The outcome of a batch: every hit was accepted and acknowledged, or none was.' })
export class RecordHitsPayload {
  @Field(() => Int, { description: 'Number of HitInputs accepted.' })
  accepted!: number;

  @Field(() => GraphQLSafeInt, { description: 'Sum of their counts.' })
  total!: number;
}
