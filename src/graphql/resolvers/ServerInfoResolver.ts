import { Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../Context';
import { ServerInfoType } from '../types/ServerInfoType';

@Resolver()
export class ServerInfoResolver {
  @Query(() => ServerInfoType, { description: 'The service version and the database engine it talks to.' })
  serverInfo(@Ctx() { services }: Context): ServerInfoType {
    return {
      version: services.version,
      database: {
        engine: services.engine.name,
        version: services.engine.version,
        compatibleWith: services.engine.compatibleWith,
        name: services.databaseName,
      },
    };
  }
}
