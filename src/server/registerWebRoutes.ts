/**
 * Browser routes: GET /tally.js (the beacon sites include), GET /dashboard, and their bundles under
 * GET /ui/…. The playground's bundles are served only when the playground is on; its page is Apollo's
 * landing page at GET /graphql (playgroundLandingPage). The pages call only the public GraphQL API.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MISSING_ASSETS_MESSAGE } from './WebAssets';
import type { WebAsset, WebAssets } from './WebAssets';

export function registerWebRoutes(app: FastifyInstance, options: { assets: WebAssets; playground: boolean }): void {
  const { assets } = options;
  const serve =
    (name: string, extraHeaders: Record<string, string> = {}) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const asset = assets.get(name);
      if (!asset) return reply.code(503).type('text/plain; charset=utf-8').send(MISSING_ASSETS_MESSAGE);
      return send(request, reply, asset, extraHeaders);
    };

  // Sites on other origins load it with <script src>, which needs no CORS; CORP allows embedding under COEP.
  app.get('/tally.js', serve('tally.js', { 'cross-origin-resource-policy': 'cross-origin' }));
  app.get('/dashboard', serve('dashboard.html'));
  app.get('/ui/*', async (request, reply) => {
    const name = `ui/${(request.params as { '*': string })['*']}`;
    const asset = options.playground || !name.startsWith('ui/playground.') ? assets.get(name) : undefined;
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send(`No such file: /${name}`);
    return send(request, reply, asset, {});
  });
}

function send(request: FastifyRequest, reply: FastifyReply, asset: WebAsset, extraHeaders: Record<string, string>) {
  // Revalidated every time (ETag): file names carry no hash, and a redeploy must reach every browser.
  reply.headers({ 'cache-control': 'no-cache', etag: asset.etag, vary: 'accept-encoding', ...extraHeaders });
  reply.type(asset.contentType);
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  if (asset.gzip && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
    return reply.header('content-encoding', 'gzip').send(asset.gzip);
  }
  return reply.send(asset.body);
}
