import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';

@ObjectType('Impression', { description: 'How many times one user has seen one item.' })
export class ImpressionType {
  @Field({ description: 'The user.' })
  userId!: string;

  @Field({ description: 'The item.' })
  itemId!: string;

  @Field(() => GraphQLSafeInt, { description: 'Times seen; exact up to 2^53 - 1.' })
  count!: number;
}
