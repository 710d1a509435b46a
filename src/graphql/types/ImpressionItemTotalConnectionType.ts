import { Field, ObjectType } from 'type-graphql';
import { ImpressionItemTotalType } from './ImpressionItemTotalType';
import { ImpressionPageInfoType } from './ImpressionPageInfoType';

@ObjectType('ItemImpressionTotalEdge', { description: 'One item total and its position in the connection.' })
export class ImpressionItemTotalEdgeType {
  @Field({ description: 'Opaque position of this edge; pass it as `after` to continue after it.' })
  cursor!: string;

  @Field(() => ImpressionItemTotalType, { description: 'The item and its total.' })
  node!: ImpressionItemTotalType;
}

@ObjectType('ItemImpressionTotalConnection', {
  description: 'Item totals, most-seen first; ties ordered by itemId, so pages never skip or repeat an edge.',
})
export class ImpressionItemTotalConnectionType {
  @Field(() => [ImpressionItemTotalEdgeType], { description: 'At most `first` edges.' })
  edges!: ImpressionItemTotalEdgeType[];

  @Field(() => ImpressionPageInfoType, { description: 'Whether and where to continue.' })
  pageInfo!: ImpressionPageInfoType;
}
