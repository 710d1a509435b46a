import { Field, InputType } from 'type-graphql';
import { DimensionEnum } from './DimensionEnum';

@InputType({
  description:
    'Only the hits with one value of one dimension. Dimension counters are kept per UTC day and month, so a filtered series takes DAY, WEEK or MONTH buckets that start at UTC midnight (timeZone "UTC", or a zone at UTC+0 over the range).',
})
export class DimensionFilterInput {
  @Field(() => DimensionEnum, { description: 'The dimension to filter by.' })
  dimension!: DimensionEnum;

  @Field({
    description:
      'The value, exactly as a breakdown returns it (e.g. "Google", "mobile", "DE", "(direct)"); a value never seen gives zeros.',
  })
  value!: string;
}
