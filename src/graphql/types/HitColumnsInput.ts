import { Field, Float, InputType, Int } from 'type-graphql';

@InputType({
  description:
    'A batch of hits as columns: sites and pages are sent once each, and hit i is (sites[siteIndex[i]], pages[pageIndex[i]], atMs[i], count[i]). The same rules as HitInput apply; the payload is smaller and cheaper to parse than one object per hit.',
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
}
