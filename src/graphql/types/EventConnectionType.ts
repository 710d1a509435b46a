import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';
import { BreakdownEdgeType } from './BreakdownConnectionType';
import { ImpressionPageInfoType } from './ImpressionPageInfoType';

@ObjectType('EventConnection', {
  description:
    "Event names (events) or one property's values (properties) ranked by count, most first; ties ordered by value, as breakdowns are. `hits` of a node is the count; `visitors` the distinct visitors who sent the event (events only). Counted over whole UTC days: `from` and `to` say which.",
})
export class EventConnectionType {
  @Field(() => [BreakdownEdgeType], { description: 'At most `first` edges.' })
  edges!: BreakdownEdgeType[];

  @Field(() => ImpressionPageInfoType, { description: 'Whether and where to continue.' })
  pageInfo!: ImpressionPageInfoType;

  @Field(() => Int, { description: 'How many distinct values were counted in the span ("(other)" not counted).' })
  totalCount!: number;

  @Field(() => GraphQLSafeInt, {
    description: 'Counted under "(other)": names, keys or values beyond what a document keeps apart (README caps).',
  })
  other!: number;

  @Field(() => DateTimeScalar, { description: 'Start of the counted span (a UTC midnight).' })
  from!: Date;

  @Field(() => DateTimeScalar, { description: 'End of the counted span (exclusive; a UTC midnight).' })
  to!: Date;
}
