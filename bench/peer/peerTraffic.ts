/**
 * The traffic both systems of the peer benchmark get (issue 27): `total` hits on 500 Zipf pages in time order,
 * each with a visitor (one per ~5 hits), a real User-Agent, a client address, a referrer from the realistic mix and
 * sometimes UTM values (AudienceTraffic), "live" over the last hour or "backfill" over 30 days. Each of the 4
 * clients sends the hits of its own visitors (rank mod 4), in order, one batch of 100 at a time: so the first hit of
 * a visitor on a page is the first one either system sees, whatever the interleaving of clients, and GoatCounter's
 * "first visit" counts are as reproducible as tally's hit counts.
 */
import { AudienceTraffic } from '../shared/audienceTraffic';
import type { AudienceShape, UtmValues } from '../shared/audienceTraffic';
import { BENCH_SITE, OrderedTraffic } from '../shared/traffic';

export type PeerShapeKey = 'live' | 'backfill';

export interface PeerShape {
  readonly key: PeerShapeKey;
  readonly label: string;
  readonly spanMs: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export const PEER_SHAPES: readonly PeerShape[] = [
  { key: 'live', label: 'timestamps in the last hour', spanMs: HOUR_MS },
  { key: 'backfill', label: 'timestamps spread over the last 30 days', spanMs: 30 * DAY_MS },
];
export const PEER_PAGES = 500;
export const PEER_BATCH = 100;
export const PEER_CLIENTS = 4;
export const HITS_PER_VISITOR = 5;
const SEED = 2727;

export interface PeerHit {
  readonly page: string;
  /** Epoch ms. */
  readonly at: number;
  readonly visitor: string;
  readonly referrer: string | undefined;
  readonly userAgent: string;
  readonly clientIp: string;
  readonly utm: UtmValues | undefined;
  /** Which of the PEER_CLIENTS sends it. */
  readonly client: number;
  /** The visitor's first hit on this page: what GoatCounter counts (a visitor, not a pageview). */
  readonly firstVisit: boolean;
}

/** The audience of a run of `total` hits: one visitor per ~HITS_PER_VISITOR hits, some far more active. */
export function peerAudience(total: number): AudienceShape {
  return {
    seed: SEED,
    visitors: Math.max(1, Math.round(total / HITS_PER_VISITOR)),
    visitorZipfS: 0.6,
    siteHost: BENCH_SITE,
    longTailHosts: 2_000,
    longTailZipfS: 1,
  };
}

export function peerHits(shape: PeerShape, total: number, now: number): PeerHit[] {
  const traffic = new OrderedTraffic({ pages: PEER_PAGES, zipfS: 1, spanMs: shape.spanMs, now, seed: SEED }, total);
  const audience = new AudienceTraffic(peerAudience(total));
  const seen = new Set<string>();
  const hits: PeerHit[] = [];
  for (let i = 0; i < total; i++) {
    const { page, at } = traffic.hit(i);
    const who = audience.hit(i);
    const pair = `${who.visitor} ${page}`;
    const firstVisit = !seen.has(pair);
    seen.add(pair);
    hits.push({
      page,
      at,
      visitor: who.visitor,
      referrer: who.referrer,
      userAgent: who.userAgent,
      clientIp: who.clientIp,
      utm: who.utm,
      client: who.visitorRank % PEER_CLIENTS,
      firstVisit,
    });
  }
  return hits;
}

/** Each client's batches, in the order it sends them (its hits in time order, PEER_BATCH at a time). */
export function clientBatches(hits: readonly PeerHit[]): PeerHit[][][] {
  const streams = Array.from({ length: PEER_CLIENTS }, () => [] as PeerHit[]);
  for (const hit of hits) streams[hit.client]?.push(hit);
  return streams.map((stream) =>
    Array.from({ length: Math.ceil(stream.length / PEER_BATCH) }, (_, b) =>
      stream.slice(b * PEER_BATCH, (b + 1) * PEER_BATCH),
    ),
  );
}
