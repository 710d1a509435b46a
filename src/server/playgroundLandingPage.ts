/**
 * Replaces Apollo's landing page (Apollo Sandbox, loaded from a CDN: blank on a machine without internet)
 * with GraphiQL built into dist/web: Apollo serves this HTML at GET /graphql to browsers, as before.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { MISSING_ASSETS_MESSAGE } from './WebAssets';
import type { WebAssets } from './WebAssets';

export function playgroundLandingPage<TContext extends object>(assets: WebAssets): ApolloServerPlugin<TContext> {
  const page = assets.get('playground.html');
  const html = page
    ? page.body.toString('utf8')
    : `<!doctype html><meta charset="utf-8"><title>tally</title><p>${MISSING_ASSETS_MESSAGE}</p>`;
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html };
        },
      };
    },
  };
}
