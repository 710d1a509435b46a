/** Builds the executable schema from the resolver classes; the same call emits schema/schema.graphql. */
import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import type { PubSub } from 'type-graphql';
import { BreakdownResolver } from './resolvers/BreakdownResolver';
import { FirstDayResolver } from './resolvers/FirstDayResolver';
import { EventResolver } from './resolvers/EventResolver';
import { DeletionResolver } from './resolvers/DeletionResolver';
import { HitResolver } from './resolvers/HitResolver';
import { ImpressionResolver } from './resolvers/ImpressionResolver';
import { PageStatsLiveResolver } from './resolvers/PageStatsLiveResolver';
import { PageStatsResolver } from './resolvers/PageStatsResolver';
import { PreallocateResolver } from './resolvers/PreallocateResolver';
import { ServerInfoResolver } from './resolvers/ServerInfoResolver';
import { TopPagesResolver } from './resolvers/TopPagesResolver';
import { DateTimeScalar } from './scalars/DateTimeScalar';
import { passPlainArguments } from './PlainArg';

export const resolvers = [
  ServerInfoResolver,
  HitResolver,
  PageStatsResolver,
  PageStatsLiveResolver,
  PreallocateResolver,
  ImpressionResolver,
  TopPagesResolver,
  BreakdownResolver,
  FirstDayResolver,
  EventResolver,
  DeletionResolver,
] as const;

/**
 * type-graphql insists on a PubSub once any @Subscription exists, even when every subscription brings its own
 * `subscribe` (ours read the database, see LiveSeriesHub): this one refuses use.
 */
const noPubSub: PubSub = {
  publish() {
    throw new Error('tally publishes no events: subscriptions poll the database');
  },
  subscribe() {
    throw new Error('tally publishes no events: subscriptions poll the database');
  },
};

export function buildSchema(): GraphQLSchema {
  return passPlainArguments(
    buildSchemaSync({
      resolvers,
      scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
      pubSub: noPubSub,
      validate: false,
    }),
  );
}
