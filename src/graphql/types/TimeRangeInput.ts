import { Field, InputType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';

@InputType({ description: 'A half-open time range [from, to).' })
export class TimeRangeInput {
  @Field(() => DateTimeScalar, { description: 'First instant included.' })
  from!: Date;

  @Field(() => DateTimeScalar, { description: 'First instant excluded; must be after `from`.' })
  to!: Date;
}
