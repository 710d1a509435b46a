import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { parsePage } from '../../domain/parsePage';
import { parseSite } from '../../domain/parseSite';
import { startOfDay } from '../../time/buckets';
import type { Context } from '../Context';
import { DateTimeScalar } from '../scalars/DateTimeScalar';

@Resolver()
export class PreallocateResolver {
  @Mutation(() => Boolean, {
    description:
      "Creates zero-filled daily and monthly documents for a page's day, if missing. Idempotent: existing counters are never reset.",
  })
  async preallocate(
    @Ctx() { services }: Context,
    @Arg('site', { description: 'Site identifier.' }) site: string,
    @Arg('page', { description: 'URL path starting with "/".' }) page: string,
    @Arg('day', () => DateTimeScalar, { description: 'Any instant of the UTC day to preallocate.' }) day: Date,
  ): Promise<boolean> {
    await services.counters.preallocate([
      { site: parseSite(site), page: parsePage(page), day: startOfDay(day.getTime()) },
    ]);
    return true;
  }
}
