/**
 * POST /api/hit: one page view from a browser (`navigator.sendBeacon(url, JSON string)`, which sends
 * `text/plain`, or `fetch` with `application/json`). The body names a public site key; the request's Origin
 * must be one the key allows, and CORS headers go only to origins some site key allows. Bots (isbot) get the
 * same 204 but are not counted. The hit goes through HitIngest.recordBeacon: same validation, limits and group
 * commit as `recordHit`, with the dimensions of what the request carried (the body's `referrer`, the page with its
 * query, the User-Agent, the client address: `request.ip`, X-Forwarded-For's where TRUST_PROXY says so) and a
 * cookieless visitor (a salted hash of site, address and User-Agent; none of the three is stored). Refusals are thrown to installErrorHandler (status and body from normalizeError), with the CORS
 * headers already set. Contract: /work/briefs/contracts.md "Beacon endpoint".
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import type { KeyRing } from '../auth/KeyRing';
import { BadRequestError } from '../errors/BadRequestError';
import { ForbiddenError } from '../errors/ForbiddenError';
import { UnauthenticatedError } from '../errors/UnauthenticatedError';
import { describe } from '../errors/describe';
import type { EventInputFields } from '../domain/events/HitEvent';
import type { HitIngest } from '../ingest/HitIngest';
import type { Metrics } from '../metrics/createMetrics';
import { AppError } from '../errors/AppError';

export type BeaconOutcome =
  'counted' | 'bot_user_agent' | 'no_user_agent' | 'origin_not_allowed' | 'unknown_key' | 'site_mismatch' | 'invalid';

export function registerBeaconRoute(
  app: FastifyInstance,
  deps: {
    keyRing: KeyRing;
    ingest: () => HitIngest;
    metrics: Metrics;
    /** BEACON_MAX_BODY_BYTES (4 KB by default, what the contract fixed). */
    maxBodyBytes: number;
  },
): void {
  const { keyRing, metrics } = deps;
  const count = (outcome: BeaconOutcome): void => metrics.beaconRequests.inc({ outcome });
  // A headless browser (HeadlessChrome) is a bot: right in production, but whoever tries the snippet in a test
  // browser sees 204 and zero. Said once per server (one per process), at debug level, without the User-Agent.
  let botExplained = false;
  const explainBot = (request: FastifyRequest): void => {
    if (botExplained) return;
    botExplained = true;
    request.log.debug(
      'a beacon came from a bot User-Agent (headless browsers such as HeadlessChrome are bots): answered 204 and ' +
        'not counted; logged once, tally_beacon_requests_total{outcome="bot_user_agent"} counts every one',
    );
  };

  const cors = (request: FastifyRequest, reply: FastifyReply): boolean => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !keyRing.isKnownOrigin(origin)) return false;
    reply.header('access-control-allow-origin', origin);
    return true;
  };

  app.options('/api/hit', async (request, reply) => {
    if (!cors(request, reply)) {
      count('origin_not_allowed');
      throw new ForbiddenError('this origin may not send hits');
    }
    return reply
      .code(204)
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '86400')
      .send();
  });

  app.post(
    '/api/hit',
    {
      bodyLimit: deps.maxBodyBytes,
      config: { bodyLimitName: 'BEACON_MAX_BODY_BYTES' },
      // CORS headers before the body is read, so a browser can read every answer, errors included.
      onRequest: async (request, reply) => {
        cors(request, reply);
      },
    },
    async (request, reply) => {
      try {
        const beacon = parseBeacon(request.body);
        const siteKey = keyRing.siteKey(beacon.key);
        if (!siteKey) {
          count('unknown_key');
          throw new UnauthenticatedError('the site key is not known to this server');
        }
        const origin = request.headers.origin;
        if (typeof origin !== 'string' || !siteKey.origins.has(origin)) {
          count('origin_not_allowed');
          throw new ForbiddenError(
            typeof origin === 'string'
              ? `origin ${describe(origin)} may not send hits with this site key`
              : 'an Origin header is required',
          );
        }
        if (beacon.site !== siteKey.site) {
          count('site_mismatch');
          throw new ForbiddenError(`the site key is not valid for site ${describe(beacon.site)}`);
        }
        const userAgent = request.headers['user-agent'];
        if (!userAgent) {
          count('no_user_agent');
          return reply.code(204).send();
        }
        if (isbot(userAgent)) {
          count('bot_user_agent');
          explainBot(request);
          return reply.code(204).send();
        }
        const page = siteKey.keepQuery ? beacon.page : withoutQuery(beacon.page);
        await deps.ingest().recordBeacon({
          site: siteKey.site,
          page,
          // The page as the browser showed it: its own origin (checked above) and path with the query, so UTM
          // parameters are read and navigation from the page's own host counts as internal, whatever the site's name.
          pageUrl: `${origin}${beacon.page}`,
          referrer: beacon.referrer,
          userAgent,
          clientIp: request.ip,
          event: beacon.event,
        });
        count('counted');
        return reply.code(204).send();
      } catch (error) {
        // Answered by installErrorHandler, like every route's refusal; counted here by the beacon's own outcome.
        if (error instanceof AppError && (error.code === 'BAD_USER_INPUT' || error.code === 'BAD_REQUEST')) {
          count('invalid');
        }
        throw error;
      }
    },
  );
}

interface Beacon {
  readonly key: string;
  readonly site: string;
  /** `location.pathname + location.search`. */
  readonly page: string;
  /** `document.referrer` (optional: older scripts and privacy settings send none). */
  readonly referrer: string | undefined;
  /** A custom event sent by `tally('Signup', {props, revenue})` (issue 28); absent: a page view. */
  readonly event: EventInputFields | undefined;
}

function parseBeacon(body: unknown): Beacon {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      throw new BadRequestError('the body must be JSON: {"key": "<site key>", "site": "…", "page": "/…"}');
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BadRequestError(`the body must be a JSON object with key, site and page, got ${describe(value)}`);
  }
  const { key, site, page, referrer, event, props, revenue } = value as Record<string, unknown>;
  for (const [name, field] of [
    ['key', key],
    ['site', site],
    ['page', page],
  ] as const) {
    if (typeof field !== 'string') throw new BadRequestError(`${name} must be a string, got ${describe(field)}`);
  }
  if (referrer !== undefined && referrer !== null && typeof referrer !== 'string') {
    throw new BadRequestError(`referrer must be a string when given, got ${describe(referrer)}`);
  }
  return {
    key: key as string,
    site: site as string,
    page: page as string,
    referrer: typeof referrer === 'string' && referrer !== '' ? referrer : undefined,
    event: parseBeaconEvent(event, props, revenue),
  };
}

/**
 * The beacon's event fields as HitInput has them: `props` is an object of strings, numbers or booleans (as the
 * script's caller wrote it), `revenue.amount` a string or a number. Their rules are parseEvent's.
 */
function parseBeaconEvent(event: unknown, props: unknown, revenue: unknown): EventInputFields | undefined {
  if (event == null && props == null && revenue == null) return undefined;
  if (event != null && typeof event !== 'string') {
    throw new BadRequestError(`event must be a string when given, got ${describe(event)}`);
  }
  let list: Array<{ key: string; value: string }> | undefined;
  if (props != null) {
    if (typeof props !== 'object' || Array.isArray(props)) {
      throw new BadRequestError(`props must be an object of strings when given, got ${describe(props)}`);
    }
    list = Object.entries(props as Record<string, unknown>).map(([key, v]) => {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
        throw new BadRequestError(`props.${key} must be a string, number or boolean, got ${describe(v)}`);
      }
      return { key, value: String(v) };
    });
  }
  let money: { amount: string; currency: string } | undefined;
  if (revenue != null) {
    const { amount, currency } = (typeof revenue === 'object' ? revenue : {}) as Record<string, unknown>;
    if ((typeof amount !== 'string' && typeof amount !== 'number') || typeof currency !== 'string') {
      throw new BadRequestError(`revenue must be {"amount": "29.90", "currency": "EUR"}, got ${describe(revenue)}`);
    }
    money = { amount: String(amount), currency };
  }
  return { event: event as string | undefined, props: list, revenue: money };
}

/** `page` is `location.pathname + location.search`; the query often carries personal data. */
function withoutQuery(page: string): string {
  const at = page.indexOf('?');
  return at === -1 ? page : page.slice(0, at);
}
