import { Field, ObjectType } from 'type-graphql';
import { ImpressionPageInfoType } from './ImpressionPageInfoType';
import { ImpressionType } from './ImpressionType';

@ObjectType('ImpressionEdge', { description: 'One (user, item) count and its position in the connection.' })
export class ImpressionEdgeType {
  @Field({ description: 'Opaque position of this edge; pass it as `after` to continue after it.' })
  cursor!: string;

  @Field(() => ImpressionType, { description: 'The counted pair.' })
  node!: ImpressionType;
}

@ObjectType('ImpressionConnection', {
  description: '(user, item) counts, most-seen first; ties ordered by id, so pages never skip or repeat an edge.',
})
export class ImpressionConnectionType {
  @Field(() => [ImpressionEdgeType], { description: 'At most `first` edges.' })
  edges!: ImpressionEdgeType[];

  @Field(() => ImpressionPageInfoType, { description: 'Whether and where to continue.' })
  pageInfo!: ImpressionPageInfoType;
}
