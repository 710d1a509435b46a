import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';
import { ImpressionPageInfoType } from './ImpressionPageInfoType';

@ObjectType('TopPage', { description: 'One page of a site and its hits in the ranked range.' })
export class TopPageType {
  @Field({ description: 'The page path, as recorded.' })
  page!: string;

  @Field(() => GraphQLSafeInt, { description: 'Hits on the page in the ranked days.' })
  hits!: number;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description:
      "Distinct visitors of the page over the connection's [visitorsFrom, visitorsTo) (standard error 1.44 %), read for the returned edges only. Null if that read failed, or when RETENTION_DAYS dropped day sketches of that span.",
  })
  visitors!: number | null;
}

@ObjectType('TopPageEdge', { description: 'One ranked page and its position in the connection.' })
export class TopPageEdgeType {
  @Field({ description: 'Opaque position of this edge; pass it as `after` to continue after it.' })
  cursor!: string;

  @Field(() => TopPageType, { description: 'The page and its hits.' })
  node!: TopPageType;
}

@ObjectType('TopPagesConnection', {
  description:
    'Pages of a site ranked by hits, most first; ties ordered by page path, so pages of results never skip or repeat an edge.',
})
export class TopPagesConnectionType {
  @Field(() => [TopPageEdgeType], { description: 'At most `first` edges.' })
  edges!: TopPageEdgeType[];

  @Field(() => ImpressionPageInfoType, { description: 'Whether and where to continue.' })
  pageInfo!: ImpressionPageInfoType;

  @Field(() => Int, { description: 'How many pages had at least one hit in the ranked days (exact).' })
  totalCount!: number;

  @Field(() => DateTimeScalar, {
    description: 'Start of the first ranked day (range.from rounded down to local midnight).',
  })
  from!: Date;

  @Field(() => DateTimeScalar, { description: 'End of the last ranked day (exclusive).' })
  to!: Date;

  @Field(() => DateTimeScalar, {
    description:
      "Start of the span the pages' visitors count: `from`, or the UTC midnight before it where the zone's days are not UTC days (sketches are kept per UTC day).",
  })
  visitorsFrom!: Date;

  @Field(() => DateTimeScalar, {
    description: "End of the span the pages' visitors count (exclusive): `to`, or the UTC midnight after it.",
  })
  visitorsTo!: Date;
}
