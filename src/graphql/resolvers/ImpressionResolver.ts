import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../Context';
import { ImpressionConnectionType } from '../types/ImpressionConnectionType';
import { ImpressionInput } from '../types/ImpressionInput';
import { ImpressionItemTotalConnectionType } from '../types/ImpressionItemTotalConnectionType';
import { RecordImpressionsPayload } from '../types/RecordImpressionsPayload';

const FIRST = { defaultValue: 20, description: 'Page size: 1 to IMPRESSIONS_MAX_PAGE (default 20).' } as const;
const AFTER = {
  nullable: true,
  description: 'Continue after this cursor (an edge cursor or pageInfo.endCursor of the same field).',
} as const;

@Resolver()
export class ImpressionResolver {
  @Mutation(() => RecordImpressionsPayload, {
    description:
      'Counts a batch of impressions, all or nothing: one invalid impression rejects the batch. Counts are summed per (user, item) pair and per item, then written with one bulk write per collection, however large the batch.',
  })
  async recordImpressions(
    @Ctx() { services }: Context,
    @Arg('impressions', () => [ImpressionInput], {
      description: 'The impressions; at most IMPRESSIONS_MAX_BATCH of them. Repeated pairs add up.',
    })
    impressions: ImpressionInput[],
  ): Promise<RecordImpressionsPayload> {
    return services.impressions.recordImpressions(impressions);
  }

  @Query(() => ImpressionConnectionType, {
    nullable: true,
    description: "One user's items, most-seen first (ties by itemId).",
  })
  async userImpressions(
    @Ctx() { services }: Context,
    @Arg('userId', { description: 'The user.' }) userId: string,
    @Arg('first', () => Int, FIRST) first: number,
    @Arg('after', () => String, AFTER) after?: string | null,
  ): Promise<ImpressionConnectionType> {
    return services.impressionQueries.userImpressions(userId, { first, after });
  }

  @Query(() => ImpressionConnectionType, {
    nullable: true,
    description: "One item's users, most-seen first (ties by userId).",
  })
  async itemImpressions(
    @Ctx() { services }: Context,
    @Arg('itemId', { description: 'The item.' }) itemId: string,
    @Arg('first', () => Int, FIRST) first: number,
    @Arg('after', () => String, AFTER) after?: string | null,
  ): Promise<ImpressionConnectionType> {
    return services.impressionQueries.itemImpressions(itemId, { first, after });
  }

  @Query(() => ImpressionConnectionType, {
    nullable: true,
    description: 'The most-seen (user, item) pairs overall (ties by userId, then itemId).',
  })
  async topImpressions(
    @Ctx() { services }: Context,
    @Arg('first', () => Int, FIRST) first: number,
    @Arg('after', () => String, AFTER) after?: string | null,
  ): Promise<ImpressionConnectionType> {
    return services.impressionQueries.topPairs({ first, after });
  }

  @Query(() => ImpressionItemTotalConnectionType, {
    nullable: true,
    description: 'The most-seen items over all users (ties by itemId), read from kept totals, not by a scan.',
  })
  async topItems(
    @Ctx() { services }: Context,
    @Arg('first', () => Int, FIRST) first: number,
    @Arg('after', () => String, AFTER) after?: string | null,
  ): Promise<ImpressionItemTotalConnectionType> {
    return services.impressionQueries.topItems({ first, after });
  }
}
