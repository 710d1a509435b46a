import { Field, InputType } from 'type-graphql';

@InputType({
  description:
    'Dimension values a client sets itself (issue 20). Each one set wins over the value tally would derive from referrer, userAgent, clientIp and the page; markers such as "(unknown)" are accepted. Ignored when the server counts no dimensions (DIMENSIONS_ENABLED=false).',
})
export class DimensionValuesInput {
  @Field(() => String, {
    nullable: true,
    description:
      'Where the visit came from, e.g. "Google" or "news.example": at most 253 characters, or "(direct)", "(internal)", "(unknown)".',
  })
  source?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'UTM source (lower-cased), at most 100 characters, or "(none)".',
  })
  utmSource?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'UTM medium (lower-cased), at most 100 characters, or "(none)".',
  })
  utmMedium?: string | null;

  @Field(() => String, { nullable: true, description: 'UTM campaign, at most 100 characters, or "(none)".' })
  utmCampaign?: string | null;

  @Field(() => String, { nullable: true, description: 'Browser family, e.g. "Firefox": at most 64 characters.' })
  browser?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Operating-system family, e.g. "Android": at most 64 characters.',
  })
  os?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Device class: desktop, mobile, tablet, tv, console or "(unknown)".',
  })
  device?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Country as an ISO 3166-1 alpha-2 code such as "DE", or "(unknown)".',
  })
  country?: string | null;
}
