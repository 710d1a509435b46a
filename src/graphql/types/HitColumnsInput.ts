import { Field, Float, InputType, Int } from 'type-graphql';
import { DimensionValuesInput } from './DimensionValuesInput';
import { PropertyInput } from './PropertyInput';
import { RevenueInput } from './RevenueInput';

@InputType({
  description:
    'A batch of hits as columns: sites and pages are sent once each, and hit i is (sites[siteIndex[i]], pages[pageIndex[i]], atMs[i], count[i]). Visitors, referrers, User-Agents, client IPs, explicit dimension values, event names, property lists and revenues are dictionaries too, each with a per-hit index column (-1: none for that hit; the index column omitted: none for any hit). The same rules as HitInput apply; the payload is smaller and cheaper to parse than one object per hit, and each dictionary entry is validated and derived once.',
})
export class HitColumnsInput {
  @Field(() => [String], { description: 'Distinct sites the hits refer to (rules as HitInput.site).' })
  sites!: string[];

  @Field(() => [String], { description: 'Distinct pages the hits refer to (rules as HitInput.page).' })
  pages!: string[];

  @Field(() => [Int], {
    nullable: true,
    description: 'Per hit, an index into sites. May be omitted when sites holds one site.',
  })
  siteIndex?: number[] | null;

  @Field(() => [Int], { description: 'Per hit, an index into pages. Its length is the number of hits.' })
  pageIndex!: number[];

  @Field(() => [Float], {
    nullable: true,
    description:
      'Per hit, when it happened in whole milliseconds since 1970-01-01T00:00:00Z (JavaScript Date.now()). Omitted: now.',
  })
  atMs?: number[] | null;

  @Field(() => [Int], { nullable: true, description: 'Per hit, how many hits (default 1 each).' })
  count?: number[] | null;

  @Field(() => [String], {
    nullable: true,
    description: 'Distinct visitor ids the hits refer to (rules as HitInput.visitor).',
  })
  visitors?: string[] | null;

  @Field(() => [Int], { nullable: true, description: 'Per hit, an index into visitors, or -1 for none.' })
  visitorIndex?: number[] | null;

  @Field(() => [String], { nullable: true, description: 'Distinct referrers (rules as HitInput.referrer).' })
  referrers?: string[] | null;

  @Field(() => [Int], { nullable: true, description: 'Per hit, an index into referrers, or -1 for none.' })
  referrerIndex?: number[] | null;

  @Field(() => [String], { nullable: true, description: 'Distinct User-Agents (rules as HitInput.userAgent).' })
  userAgents?: string[] | null;

  @Field(() => [Int], { nullable: true, description: 'Per hit, an index into userAgents, or -1 for none.' })
  userAgentIndex?: number[] | null;

  @Field(() => [String], { nullable: true, description: 'Distinct client IP addresses (rules as HitInput.clientIp).' })
  clientIps?: string[] | null;

  @Field(() => [Int], { nullable: true, description: 'Per hit, an index into clientIps, or -1 for none.' })
  clientIpIndex?: number[] | null;

  @Field(() => [DimensionValuesInput], {
    nullable: true,
    description: 'Distinct sets of explicit dimension values (rules as HitInput.dimensions).',
  })
  dimensions?: DimensionValuesInput[] | null;

  @Field(() => [Int], { nullable: true, description: 'Per hit, an index into dimensions, or -1 for none.' })
  dimensionIndex?: number[] | null;

  @Field(() => [String], { nullable: true, description: 'Distinct event names (rules as HitInput.event).' })
  events?: string[] | null;

  @Field(() => [Int], { nullable: true, description: 'Per hit, an index into events, or -1 for a pageview.' })
  eventIndex?: number[] | null;

  @Field(() => [[PropertyInput]], {
    nullable: true,
    description: 'Distinct property lists (rules as HitInput.props).',
  })
  properties?: PropertyInput[][] | null;

  @Field(() => [Int], {
    nullable: true,
    description: 'Per hit, an index into properties, or -1 for none (events only).',
  })
  propertiesIndex?: number[] | null;

  @Field(() => [RevenueInput], { nullable: true, description: 'Distinct revenues (rules as HitInput.revenue).' })
  revenues?: RevenueInput[] | null;

  @Field(() => [Int], { nullable: true, description: 'Per hit, an index into revenues, or -1 for none (events only).' })
  revenueIndex?: number[] | null;
}
