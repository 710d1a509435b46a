import { Arg, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import type { Context } from '../Context';
import { DateTimeScalar } from '../scalars/DateTimeScalar';
import { HitInput } from '../types/HitInput';
import { RecordedHitType } from '../types/RecordedHitType';
import { RecordHitsPayload } from '../types/RecordHitsPayload';

@Resolver()
export class HitResolver {
  @Mutation(() => RecordedHitType, {
    description: 'Counts hits on one page. Returns after the database acknowledged a write holding them.',
  })
  async recordHit(
    @Ctx() { services }: Context,
    @Arg('site', { description: 'Site identifier (no "/").' }) site: string,
    @Arg('page', { description: 'URL path starting with "/".' }) page: string,
    @Arg('at', () => DateTimeScalar, { nullable: true, description: 'When; defaults to the server clock.' })
    at?: Date | null,
    @Arg('count', () => Int, { defaultValue: 1, description: 'How many hits (default 1).' }) count?: number,
  ): Promise<RecordedHitType> {
    const hit = await services.ingest.recordHit({ site, page, at, count });
    return { site: hit.site, page: hit.page, at: new Date(hit.at), count: hit.count };
  }

  @Mutation(() => RecordHitsPayload, {
    description:
      'Counts a batch of hits, all or nothing: one invalid hit rejects the batch. Increments are summed per document and written with one bulk write per collection.',
  })
  async recordHits(
    @Ctx() { services }: Context,
    @Arg('hits', () => [HitInput], { description: 'The hits; at most INGEST_MAX_BATCH of them.' }) hits: HitInput[],
  ): Promise<RecordHitsPayload> {
    return services.ingest.recordHits(hits);
  }
}
