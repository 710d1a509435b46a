/**
 * GoatCounter v2.7.0 as the peer benchmark runs it: `goatcounter serve` in production mode (no -dev) on SQLite in its
 * own directory, with its rate limits raised far above the run's request rate and its default persistence (hits
 * are kept in memory and written every 10 s). A site, a user and an API token are made with its own CLI; the CLI
 * cannot grant the token the "stats" permission, so that bit is set with `goatcounter db query`. Hits go to
 * `POST /api/v0/count` in batches (path, referrer, User-Agent, IP, UTM query, time and the visitor as its session);
 * answers come from `GET /api/v0/stats/…`. GoatCounter counts a visitor's first hit on a page (hourly rows per
 * page, and per page and referrer); a referrer is its URL without a trailing slash, or the utm_source when the
 * page's query has one.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GraphqlClient } from '../shared/GraphqlClient';
import { processCpuSeconds } from '../shared/processCpu';
import { freePort } from '../shared/serverProcess';
import { watchChild } from '../shared/watchChild';
import type { PeerSystem } from './PeerSystem';
import { directoryBytes } from './PeerSystem';
import { GOATCOUNTER_VERSION } from './buildGoatcounter';
import type { DayRange, PeerAnswer, PeerQuery } from './peerQueries';
import { RANKED_ROWS } from './peerQueries';
import { PEER_CLIENTS } from './peerTraffic';
import type { PeerHit } from './peerTraffic';

/** Every API permission (count, export, site read/create/update, stats): APIPerm* in its api_token.go. */
const ALL_PERMISSIONS = 126;
/** Requests per second per limit, far above anything the benchmark sends (the defaults allow 60 counts per 2 min). */
const RATE_LIMITS = 'count:1000000/1,api:1000000/1,api-count:1000000/1';
const READY_TIMEOUT_MS = 30_000;
/** The site's admin, whom the API token belongs to (the CLI asks for a password when it is not given). */
const USER = ['-user.email', 'bench@bench.example', '-user.password', 'bench-password'];

interface HitsAnswer {
  hits: Array<{ path: string; count: number; stats: Array<{ daily: number; hourly: number[] }> }>;
}

export async function startGoatcounterPeer(binary: string): Promise<PeerSystem> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goatcounter-peer-'));
  const db = `sqlite+${path.join(dir, 'goatcounter.sqlite3')}`;
  const cli = (...args: string[]): string => execFileSync(binary, args, { encoding: 'utf8', cwd: dir });
  cli('db', 'create', 'site', '-createdb', '-db', db, '-vhost', 'stats.bench.example', ...USER);
  cli('db', 'create', 'apitoken', '-db', db, '-user', '1', '-perm', 'count', '-name', 'bench');
  cli('db', 'query', '-db', db, `update api_tokens set permissions = ${ALL_PERMISSIONS}`);
  const token = /^[0-9a-z]{20,}$/m.exec(cli('db', 'query', '-db', db, 'select token from api_tokens'))?.[0];
  if (token === undefined) throw new Error('goatcounter db query printed no API token');
  const port = await freePort();
  const child = spawn(
    binary,
    ['serve', '-db', db, '-listen', `127.0.0.1:${port}`, '-tls', 'http', '-ratelimit', RATE_LIMITS, '-api-max=-1'],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const watched = watchChild(child);
  const client = new GraphqlClient(`http://127.0.0.1:${port}`, PEER_CLIENTS, { authorization: `Bearer ${token}` });
  let running = true;
  const halt = async (): Promise<void> => {
    if (!running) return;
    running = false;
    client.close();
    await watched.stop();
  };
  const stop = async (): Promise<void> => {
    await halt();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const get = async <T>(route: string, range: DayRange, query: Record<string, string> = {}): Promise<T> => {
    // GoatCounter's ranges include their end (hour <= end): the last second of the last day.
    const search = new URLSearchParams({
      start: new Date(range.from).toISOString().replace('.000', ''),
      end: new Date(range.to - 1000).toISOString().replace('.000', ''),
      ...query,
    });
    const { status, text } = await client.exchange('GET', `/api/v0/${route}?${search}`);
    if (status !== 200) throw new Error(`GoatCounter GET ${route}: HTTP ${status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  };
  try {
    await waitUntilReady(client, () => child.exitCode !== null);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}; goatcounter output:\n${watched.output()}`);
  }
  const pageSeries = async (query: PeerQuery, daily: boolean): Promise<number[]> => {
    const answer = await get<HitsAnswer>('stats/hits', query.range, {
      include_paths: query.page,
      path_by_name: 'true',
      limit: '1',
      ...(daily ? { daily: 'true' } : {}),
    });
    const days = answer.hits[0]?.stats ?? [];
    return daily ? days.map((day) => day.daily) : days.flatMap((day) => day.hourly);
  };
  return {
    label: `GoatCounter ${GOATCOUNTER_VERSION} (SQLite)`,
    counting: {
      firstVisitsOnly: true,
      // A utm_source in the page's query replaces the referrer (Hit.Defaults); a URL loses its trailing slash.
      referrerKey: (hit) => hit.utm?.utmSource ?? (hit.referrer ?? '').replace(/\/$/, ''),
    },
    batchBody: (batch) => JSON.stringify({ hits: batch.map(countHit) }),
    send: async (body) => {
      const { status, text } = await client.exchange('POST', '/api/v0/count', body);
      if (status !== 202) throw new Error(`GoatCounter POST /api/v0/count: HTTP ${status}: ${text.slice(0, 300)}`);
    },
    counted: async (range) => (await get<{ total: number }>('stats/total', range)).total,
    answer: async (query: PeerQuery): Promise<PeerAnswer> => {
      switch (query.kind) {
        case 'siteTotal7Days':
          return (await get<{ total: number }>('stats/total', query.range)).total;
        case 'pageByDay30Days':
          return pageSeries(query, true);
        case 'pageByHour7Days':
          return pageSeries(query, false);
        case 'topPages30Days': {
          const answer = await get<HitsAnswer>('stats/hits', query.range, { limit: String(RANKED_ROWS) });
          return answer.hits.map((row) => ({ key: row.path, count: row.count }));
        }
        case 'referrers30Days': {
          const answer = await get<{ stats: Array<{ name: string; count: number }> }>('stats/toprefs', query.range, {
            limit: String(RANKED_ROWS),
          });
          return answer.stats.map((row) => ({ key: row.name, count: row.count }));
        }
      }
    },
    cpuSeconds: () => processCpuSeconds(child.pid),
    serverCpuSeconds: () => processCpuSeconds(child.pid),
    diskBytes: () => directoryBytes(dir),
    halt,
    stop,
  };
}

/** A hit as `/api/v0/count` takes it; the visitor id is the session, as a site that knows its visitors sends it. */
function countHit(hit: PeerHit): Record<string, unknown> {
  return {
    path: hit.page,
    created_at: new Date(hit.at).toISOString(),
    session: hit.visitor,
    user_agent: hit.userAgent,
    ip: hit.clientIp,
    ...(hit.referrer === undefined ? {} : { ref: hit.referrer }),
    ...(hit.utm === undefined
      ? {}
      : {
          query: `?utm_source=${hit.utm.utmSource}&utm_medium=${hit.utm.utmMedium}&utm_campaign=${hit.utm.utmCampaign}`,
        }),
  };
}

async function waitUntilReady(client: GraphqlClient, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('goatcounter exited before it was ready');
    try {
      if ((await client.exchange('GET', '/api/v0/me')).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`goatcounter was not ready within ${READY_TIMEOUT_MS} ms`);
}
