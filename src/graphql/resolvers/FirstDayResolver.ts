/**
 * firstDay: where a site's history starts, so a client can ask for "all time" (issue 30). Read from the site-total
 * monthly documents, which retention keeps when it drops days.
 */
import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { parseSite } from '../../domain/parseSite';
import type { Context } from '../Context';
import { DateTimeScalar } from '../scalars/DateTimeScalar';

@Resolver()
export class FirstDayResolver {
  @Query(() => DateTimeScalar, {
    nullable: true,
    description:
      'The start (UTC midnight) of the first UTC day with a stored hit on the site; null when it has none. "All time" is from here.',
  })
  async firstDay(
    @Ctx() { services }: Context,
    @Arg('site', { description: 'Site identifier.' }) site: string,
  ): Promise<Date | null> {
    const day = await services.counters.firstCountedDay(parseSite(site));
    return day === undefined ? null : new Date(day);
  }
}
