/** The bucket sizes a live subscription can watch: the two that change from one second to the next. */
import { registerEnumType } from 'type-graphql';
import { Granularity } from '../../time/Granularity';

export enum LiveGranularity {
  SECOND = Granularity.SECOND,
  MINUTE = Granularity.MINUTE,
}

registerEnumType(LiveGranularity, {
  name: 'LiveGranularity',
  description: 'Bucket size of a live series.',
  valuesConfig: {
    SECOND: { description: 'One bucket per second, from the second-level counters (SECONDS_ENABLED).' },
    MINUTE: { description: 'One bucket per minute, from daily documents.' },
  },
});
