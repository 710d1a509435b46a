import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, Float, ObjectType } from 'type-graphql';

@ObjectType('Money', { description: 'An exact amount of one currency.' })
export class MoneyType {
  @Field({ description: 'ISO 4217 currency code, e.g. "EUR".' })
  currency!: string;

  @Field({ description: 'The amount as a decimal string with the currency\'s minor-unit digits, e.g. "29.90".' })
  amount!: string;
}

@ObjectType('Conversion', { description: "One goal's conversions over the counted span." })
export class ConversionType {
  @Field({ description: 'The goal: the event name, or "Visit <pattern>" for a page goal.' })
  goal!: string;

  @Field(() => GraphQLSafeInt, {
    description: "How many times the goal was reached (exact): the event's occurrences, or the matching pages' hits.",
  })
  events!: number;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description:
      'Distinct visitors who reached the goal, estimated from sketches (about 1.4 % standard error above a few hundred).',
  })
  visitors!: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "The goal's visitors over the site's visitors of the same span, from 0 to 1; null when the site had no visitors.",
  })
  conversionRate!: number | null;

  @Field(() => [MoneyType], { description: "The event's revenue per currency (exact); empty for page goals." })
  revenue!: MoneyType[];
}
