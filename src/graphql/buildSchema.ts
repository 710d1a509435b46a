/** Builds the executable schema from the resolver classes; the same call emits schema/schema.graphql. */
import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import { HitResolver } from './resolvers/HitResolver';
import { PageStatsResolver } from './resolvers/PageStatsResolver';
import { PreallocateResolver } from './resolvers/PreallocateResolver';
import { ServerInfoResolver } from './resolvers/ServerInfoResolver';
import { DateTimeScalar } from './scalars/DateTimeScalar';

export const resolvers = [ServerInfoResolver, HitResolver, PageStatsResolver, PreallocateResolver] as const;

export function buildSchema(): GraphQLSchema {
  return buildSchemaSync({
    resolvers,
    scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
    validate: false,
  });
}
