import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';

@ObjectType('RecordedHit', { description: 'A hit as counted, once it is durable (see recordHit).' })
export class RecordedHitType {
  @Field({ description: 'The site.' })
  site!: string;

  @Field({ description: 'The page.' })
  page!: string;

  @Field(() => DateTimeScalar, { description: 'The instant counted (the server clock when `at` was omitted).' })
  at!: Date;

  @Field(() => Int, { description: 'Hits counted.' })
  count!: number;
}
