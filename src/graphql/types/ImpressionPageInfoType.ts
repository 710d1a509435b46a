import { Field, ObjectType } from 'type-graphql';

@ObjectType('PageInfo', { description: 'Where a forward-paginated (Relay) connection page ends.' })
export class ImpressionPageInfoType {
  @Field({ description: 'Whether more edges follow; pass endCursor as `after` to read them.' })
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true, description: 'The cursor of the last edge; null when the page is empty.' })
  endCursor!: string | null;
}
