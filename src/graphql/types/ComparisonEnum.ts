/** Registers the Comparison enum: which earlier series a series is compared with. */
import { registerEnumType } from 'type-graphql';

export enum Comparison {
  PREVIOUS_PERIOD = 'PREVIOUS_PERIOD',
  PREVIOUS_YEAR = 'PREVIOUS_YEAR',
}

registerEnumType(Comparison, {
  name: 'Comparison',
  description: 'An earlier series to return alongside the current one, read in the same batched query.',
  valuesConfig: {
    PREVIOUS_PERIOD: {
      description:
        'The same number of buckets immediately before the first bucket (the previous 7 days for 7 DAY buckets).',
    },
    PREVIOUS_YEAR: {
      description: 'The same local wall-clock span one calendar year earlier (29 February maps to 28 February).',
    },
  },
});
