/** Registers the Granularity enum with its playground documentation. */
import { registerEnumType } from 'type-graphql';
import { Granularity } from '../../time/Granularity';

registerEnumType(Granularity, {
  name: 'Granularity',
  description: 'Bucket size of a series. All buckets are UTC; weeks are ISO weeks starting on Monday.',
  valuesConfig: {
    SECOND: { description: 'One bucket per second (recent data only; see the retention window).' },
    MINUTE: { description: 'One bucket per minute, read from daily documents (only the hours the range touches).' },
    HOUR: { description: 'One bucket per hour, read from daily documents.' },
    DAY: { description: 'One bucket per UTC day, read from monthly documents.' },
    WEEK: { description: 'One bucket per ISO week (Monday 00:00 UTC), summed from monthly documents.' },
    MONTH: { description: 'One bucket per calendar month, summed from monthly documents.' },
  },
});

export { Granularity };
