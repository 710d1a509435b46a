import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, Float, ObjectType } from 'type-graphql';

/**
 * The visit figures (issue 29) a bucket, a series, its comparison or a live update carries. Null where visit counters
 * do not answer: SECOND buckets, MINUTE buckets and buckets whose boundaries fall inside an hour (zones with half-hour
 * offsets) before the second-level retention (minute documents keep a minute's visit counters as long as they live),
 * a series filtered by a dimension, and counters retention dropped. The types that extend it inherit its fields; no field returns it, so the schema does
 * not list it.
 */
@ObjectType()
export abstract class VisitFiguresFields {
  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description:
      "Visits (a visitor's hits with no gap of VISIT_TIMEOUT_MINUTES or more), counted in the hour, day and month (and, for MINUTE buckets inside the second-level retention, the minute) of their first hit. On a site: visits started; on a page: visits that viewed it. Hits without a visitor are in no visit.",
  })
  visits!: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      'Bounces (visits of one pageview and no event) over visits, 0 to 1. On a page: of the visits that entered there. Null with no visits.',
  })
  bounceRate!: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      'Mean visit duration in seconds, first hit to last (events included). On a page: of the visits that entered there. Null with no visits.',
  })
  visitDuration!: number | null;

  @Field(() => Float, {
    nullable: true,
    description: 'Pageviews per visit. On a page: of the visits that entered there. Null with no visits.',
  })
  viewsPerVisit!: number | null;
}
