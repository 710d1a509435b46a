import { GraphQLSafeInt } from 'graphql-scalars';
import { VisitFiguresFields } from './VisitFiguresFields';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';

@ObjectType('SeriesPoint', { description: 'One bucket of a series.' })
export class SeriesPointType extends VisitFiguresFields {
  @Field(() => DateTimeScalar, { description: 'Start of the bucket (UTC).' })
  t!: Date;

  @Field({
    description:
      'Start of the bucket in the series time zone, ISO-8601 with that offset, e.g. "2026-03-29T03:00:00+02:00".',
  })
  local!: string;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description:
      'Hits in the bucket; exact up to 2^53 - 1. Null when retention dropped the counters the bucket needs (minute counters past RETENTION_MINUTES_DAYS, daily documents past RETENTION_DAYS; the response then carries `extensions.retention`), never a wrong zero.',
  })
  hits!: number | null;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description:
      "Distinct visitors in the bucket, when the bucket is a union of stored sketch periods: whole UTC months or days, or whole UTC minutes inside the second-level retention (so MINUTE and HOUR buckets of the last SECONDS_RETENTION_HOURS, and DAY, WEEK and MONTH buckets whose days are UTC days, or recent enough). Null otherwise, never a wrong number: SECOND buckets, and local days of older data in a zone whose days are not UTC days (the range's `visitors` still counts them).",
  })
  visitors?: number | null;
}
