/**
 * deleteSite, deletePage and pendingDeletions (issue 30): admin only (rootFieldPolicies). A mutation records the
 * request and answers at once; store/Deletions' background job deletes the data.
 */
import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { parsePage } from '../../domain/parsePage';
import { parseSite } from '../../domain/parseSite';
import type { PendingDeletion } from '../../store/deletionRequests';
import type { Context } from '../Context';
import { DeletionType } from '../types/DeletionType';

@Resolver()
export class DeletionResolver {
  @Mutation(() => DeletionType, {
    description:
      'Deletes every stored count of a site: its pages, its totals, their visitors and dimensions, at every granularity. Idempotent; answers at once, the data goes in the background (see Deletion). Admin keys only.',
  })
  async deleteSite(
    @Ctx() { services }: Context,
    @Arg('site', { description: 'Site identifier.' }) site: string,
  ): Promise<DeletionType> {
    return toDeletion(await services.deletions.request({ site: parseSite(site) }, services.clock()));
  }

  @Mutation(() => DeletionType, {
    description:
      "Deletes every stored count of one page. The site's totals are sums that do not name the page and keep its hits (delete the site to remove them). Idempotent; answers at once, the data goes in the background. Admin keys only.",
  })
  async deletePage(
    @Ctx() { services }: Context,
    @Arg('site', { description: 'Site identifier.' }) site: string,
    @Arg('page', { description: 'URL path starting with "/".' }) page: string,
  ): Promise<DeletionType> {
    const target = { site: parseSite(site), page: parsePage(page) };
    return toDeletion(await services.deletions.request(target, services.clock()));
  }

  @Query(() => [DeletionType], {
    description: 'Deletions asked for and not done yet (at most 100, by site and page). Admin keys only.',
  })
  async pendingDeletions(@Ctx() { services }: Context): Promise<DeletionType[]> {
    return (await services.deletions.list()).map(toDeletion);
  }
}

function toDeletion(deletion: PendingDeletion): DeletionType {
  return {
    site: deletion.site,
    page: deletion.page ?? null,
    requestedAt: new Date(deletion.requestedAt),
    status: 'PENDING',
  };
}
