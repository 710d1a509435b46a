import { Field, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';

@ObjectType('Deletion', {
  description:
    "A deletion of a site's or a page's data, carried out in the background (every SWEEP_INTERVAL_MS): every counter document stored before `requestedAt` goes; hits that arrive while it is pending may go too or may stay, and hits after it is done count afresh. Done when it no longer shows in `pendingDeletions`.",
})
export class DeletionType {
  @Field({ description: 'The site, as given.' })
  site!: string;

  @Field(() => String, { nullable: true, description: 'The page, or null for the whole site (its pages and totals).' })
  page!: string | null;

  @Field(() => DateTimeScalar, {
    description: 'The latest request for this site or page: what was stored before it goes.',
  })
  requestedAt!: Date;

  @Field({ description: '"PENDING" until the background job has deleted everything; then the deletion is gone.' })
  status!: string;
}
