import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, Info, Int, Mutation, Resolver } from 'type-graphql';
import type { Context } from '../Context';
import { PlainArg } from '../PlainArg';
import { resolveIdempotencyKey } from '../resolveIdempotencyKey';
import { DateTimeScalar } from '../scalars/DateTimeScalar';
import { DimensionValuesInput } from '../types/DimensionValuesInput';
import { HitColumnsInput } from '../types/HitColumnsInput';
import { HitInput } from '../types/HitInput';
import { PropertyInput } from '../types/PropertyInput';
import { RevenueInput } from '../types/RevenueInput';
import {
  CLIENT_IP_DESCRIPTION,
  DIMENSIONS_DESCRIPTION,
  EVENT_DESCRIPTION,
  PROPS_DESCRIPTION,
  REVENUE_DESCRIPTION,
  REFERRER_DESCRIPTION,
  USER_AGENT_DESCRIPTION,
  VISITOR_DESCRIPTION,
} from '../types/hitInputDescriptions';
import { RecordedHitType } from '../types/RecordedHitType';
import { RecordHitsPayload } from '../types/RecordHitsPayload';

const KEY_DESCRIPTION =
  'Counts this request exactly once however often it is sent within the idempotency window (IDEMPOTENCY_WINDOW_HOURS, default 24 h): a retry returns the original result; the same key with different hits fails with IDEMPOTENCY_KEY_REUSED. 1–255 characters. The Idempotency-Key HTTP header is an alternative.';

@Resolver()
export class HitResolver {
  @Mutation(() => RecordedHitType, {
    description:
      'Counts hits on one page. Returns once they are durable: in the local ingest log with INGEST_ACK=log (the embedded default; they reach the database, and queries, about one FLUSH_WINDOW_MS later), in the database with INGEST_ACK=database.',
  })
  async recordHit(
    @Ctx() { services, idempotencyKeyHeader }: Context,
    @Info() info: GraphQLResolveInfo,
    @Arg('site', { description: 'Site identifier (no "/").' }) site: string,
    @Arg('page', { description: 'URL path starting with "/".' }) page: string,
    @Arg('at', () => DateTimeScalar, { nullable: true, description: 'When; defaults to the server clock.' })
    at?: Date | null,
    @Arg('count', () => Int, { defaultValue: 1, description: 'How many hits (default 1).' }) count?: number,
    @Arg('idempotencyKey', () => String, { nullable: true, description: KEY_DESCRIPTION })
    idempotencyKey?: string | null,
    @Arg('visitor', () => String, { nullable: true, description: VISITOR_DESCRIPTION }) visitor?: string | null,
    @Arg('referrer', () => String, { nullable: true, description: REFERRER_DESCRIPTION }) referrer?: string | null,
    @Arg('userAgent', () => String, { nullable: true, description: USER_AGENT_DESCRIPTION })
    userAgent?: string | null,
    @Arg('clientIp', () => String, { nullable: true, description: CLIENT_IP_DESCRIPTION }) clientIp?: string | null,
    @Arg('dimensions', () => DimensionValuesInput, { nullable: true, description: DIMENSIONS_DESCRIPTION })
    dimensions?: DimensionValuesInput | null,
    @Arg('event', () => String, { nullable: true, description: EVENT_DESCRIPTION }) event?: string | null,
    @Arg('props', () => [PropertyInput], { nullable: true, description: PROPS_DESCRIPTION })
    props?: PropertyInput[] | null,
    @Arg('revenue', () => RevenueInput, { nullable: true, description: REVENUE_DESCRIPTION })
    revenue?: RevenueInput | null,
  ): Promise<RecordedHitType> {
    const key = resolveIdempotencyKey(idempotencyKey, idempotencyKeyHeader, info);
    const hit = await services.ingest.recordHit(
      { site, page, at, count, visitor, referrer, userAgent, clientIp, dimensions, event, props, revenue },
      { idempotencyKey: key },
    );
    return { site: hit.site, page: hit.page, at: new Date(hit.at), count: hit.count };
  }

  @Mutation(() => RecordHitsPayload, {
    description:
      'Counts a batch of hits, all or nothing: one invalid hit rejects the batch. Returns once they are durable, as recordHit does. Increments are summed per document, so each document is written once per window (INGEST_ACK=log) or per flush (INGEST_ACK=database).',
  })
  async recordHits(
    @Ctx() { services, idempotencyKeyHeader }: Context,
    @Info() info: GraphQLResolveInfo,
    @PlainArg('hits', () => [HitInput], { description: 'The hits; at most INGEST_MAX_BATCH of them.' })
    hits: HitInput[],
    @Arg('idempotencyKey', () => String, { nullable: true, description: KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ): Promise<RecordHitsPayload> {
    const key = resolveIdempotencyKey(idempotencyKey, idempotencyKeyHeader, info);
    return services.ingest.recordHits(hits, { idempotencyKey: key });
  }

  @Mutation(() => RecordHitsPayload, {
    description:
      'recordHits for a columnar batch (HitColumnsInput): the same rules, all or nothing, and result. Meant for ingest pipelines: sites and pages are sent once per batch, so large batches cost a fraction of the bytes and CPU.',
  })
  async recordHitColumns(
    @Ctx() { services, idempotencyKeyHeader }: Context,
    @Info() info: GraphQLResolveInfo,
    @Arg('columns', () => HitColumnsInput, { description: 'The hits; at most INGEST_MAX_BATCH of them.' })
    columns: HitColumnsInput,
    @Arg('idempotencyKey', () => String, { nullable: true, description: KEY_DESCRIPTION })
    idempotencyKey?: string | null,
  ): Promise<RecordHitsPayload> {
    const key = resolveIdempotencyKey(idempotencyKey, idempotencyKeyHeader, info);
    return services.ingest.recordHitColumns(columns, { idempotencyKey: key });
  }
}
