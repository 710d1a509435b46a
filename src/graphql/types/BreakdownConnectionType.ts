import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeScalar } from '../scalars/DateTimeScalar';
import { DimensionEnum } from './DimensionEnum';
import { VisitFiguresFields } from './VisitFiguresFields';
import { ImpressionPageInfoType } from './ImpressionPageInfoType';

@ObjectType('BreakdownValue', { description: 'One value of a dimension and its hits over the counted span.' })
export class BreakdownValueType extends VisitFiguresFields {
  @Field({ description: 'The value, e.g. "Google", "mobile", "DE", or a marker such as "(direct)".' })
  value!: string;

  @Field(() => GraphQLSafeInt, { description: 'Hits with this value in the counted span (exact).' })
  hits!: number;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description:
      'Distinct visitors with this value in the counted span, estimated from per-value sketches (about 4 % standard error above a few dozen visitors). Kept for site totals (no `page`) of the dimensions listed in DIMENSION_VISITORS only; null elsewhere, never a guess.',
  })
  visitors!: number | null;
}

@ObjectType('BreakdownEdge', { description: 'One value and its position in the connection.' })
export class BreakdownEdgeType {
  @Field({ description: 'Opaque position of this edge; pass it as `after` to continue after it.' })
  cursor!: string;

  @Field(() => BreakdownValueType, { description: 'The value and its counts.' })
  node!: BreakdownValueType;
}

@ObjectType('BreakdownConnection', {
  description:
    "A dimension's values ranked by hits, most first; ties ordered by value (UTF-16 code units), so pages of results never skip or repeat an edge. Counted over whole UTC days: `from` and `to` say which.",
})
export class BreakdownConnectionType {
  @Field(() => DimensionEnum, { description: 'The dimension broken down.' })
  dimension!: DimensionEnum;

  @Field(() => [BreakdownEdgeType], { description: 'At most `first` edges.' })
  edges!: BreakdownEdgeType[];

  @Field(() => ImpressionPageInfoType, { description: 'Whether and where to continue.' })
  pageInfo!: ImpressionPageInfoType;

  @Field(() => Int, {
    description: 'How many distinct values had at least one hit in the counted span (exact; "(other)" not counted).',
  })
  totalCount!: number;

  @Field(() => GraphQLSafeInt, {
    description:
      'Hits counted under "(other)": values a document no longer kept apart once it held DIMENSION_MAX_VALUES distinct values. The edges\' hits plus `other` are every hit of the span.',
  })
  other!: number;

  @Field(() => DateTimeScalar, {
    description:
      "Start of the counted span: the UTC midnight at or before the first local day of the range (that day's start where the zone's days are UTC days).",
  })
  from!: Date;

  @Field(() => DateTimeScalar, {
    description: 'End of the counted span (exclusive): the UTC midnight at or after the end of the last local day.',
  })
  to!: Date;
}
