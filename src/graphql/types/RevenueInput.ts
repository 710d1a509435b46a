import { Field, InputType } from 'type-graphql';

@InputType({ description: "A custom event's revenue, summed exactly in the currency's minor units." })
export class RevenueInput {
  @Field({
    description:
      'A non-negative decimal string such as "29.90", with at most as many decimals as the currency has minor-unit digits (2 for EUR, 0 for JPY).',
  })
  amount!: string;

  @Field({ description: 'An ISO 4217 currency code: three capital letters such as "EUR".' })
  currency!: string;
}
