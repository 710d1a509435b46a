import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';

@ObjectType('ItemImpressionTotal', { description: 'How many times one item has been seen, over all users.' })
export class ImpressionItemTotalType {
  @Field({ description: 'The item.' })
  itemId!: string;

  @Field(() => GraphQLSafeInt, { description: 'Times seen; exact up to 2^53 - 1.' })
  count!: number;
}
