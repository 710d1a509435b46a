/** Registers the Granularity enum with its playground documentation. */
import { registerEnumType } from 'type-graphql';
import { Granularity } from '../../time/Granularity';

registerEnumType(Granularity, {
  name: 'Granularity',
  description:
    'Bucket size of a series. Buckets follow the series time zone (UTC unless one is named); weeks are ISO weeks starting on Monday.',
  valuesConfig: {
    SECOND: { description: 'One bucket per second (recent data only; see the retention window).' },
    MINUTE: { description: 'One bucket per minute, read from daily documents (only the hours the range touches).' },
    HOUR: { description: 'One bucket per hour, read from daily documents.' },
    DAY: { description: 'One bucket per day (from local midnight), read from monthly documents in UTC.' },
    WEEK: { description: 'One bucket per ISO week (from Monday 00:00 local time), summed from monthly documents.' },
    MONTH: { description: 'One bucket per calendar month, summed from monthly documents.' },
  },
});

export { Granularity };
