import { Field, InputType, Int } from 'type-graphql';

@InputType({ description: 'One user seeing one item, once or `count` times.' })
export class ImpressionInput {
  @Field({ description: 'Who saw the item: 1–128 characters, no control characters. Compared exactly.' })
  userId!: string;

  @Field({ description: 'What was seen: 1–128 characters, no control characters. Compared exactly.' })
  itemId!: string;

  @Field(() => Int, { defaultValue: 1, description: 'How many times; a positive integer up to IMPRESSIONS_MAX_COUNT.' })
  count!: number;
}
