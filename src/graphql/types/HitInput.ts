import { Field, InputType, Int } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';
import { DimensionValuesInput } from './DimensionValuesInput';
import { PropertyInput } from './PropertyInput';
import { RevenueInput } from './RevenueInput';
import {
  CLIENT_IP_DESCRIPTION,
  DIMENSIONS_DESCRIPTION,
  EVENT_DESCRIPTION,
  PROPS_DESCRIPTION,
  REVENUE_DESCRIPTION,
  REFERRER_DESCRIPTION,
  USER_AGENT_DESCRIPTION,
  VISITOR_DESCRIPTION,
} from './hitInputDescriptions';

@InputType({ description: 'One or more hits on one page at one instant.' })
export class HitInput {
  @Field({
    description: 'Site identifier, e.g. "example.com": 1–253 characters, no "/", whitespace or control characters.',
  })
  site!: string;

  @Field({
    description: 'URL path starting with "/", at most 2,048 characters, no control characters. Compared exactly.',
  })
  page!: string;

  @Field(() => DateTimeScalar, { nullable: true, description: 'When the hits happened; defaults to the server clock.' })
  at?: Date | null;

  @Field(() => Int, { defaultValue: 1, description: 'How many hits; a positive integer up to INGEST_MAX_COUNT.' })
  count!: number;

  @Field(() => String, { nullable: true, description: VISITOR_DESCRIPTION })
  visitor?: string | null;

  @Field(() => String, { nullable: true, description: REFERRER_DESCRIPTION })
  referrer?: string | null;

  @Field(() => String, { nullable: true, description: USER_AGENT_DESCRIPTION })
  userAgent?: string | null;

  @Field(() => String, { nullable: true, description: CLIENT_IP_DESCRIPTION })
  clientIp?: string | null;

  @Field(() => DimensionValuesInput, { nullable: true, description: DIMENSIONS_DESCRIPTION })
  dimensions?: DimensionValuesInput | null;

  @Field(() => String, { nullable: true, description: EVENT_DESCRIPTION })
  event?: string | null;

  @Field(() => [PropertyInput], { nullable: true, description: PROPS_DESCRIPTION })
  props?: PropertyInput[] | null;

  @Field(() => RevenueInput, { nullable: true, description: REVENUE_DESCRIPTION })
  revenue?: RevenueInput | null;
}
