/** The audience of synthetic traffic: reproducible per index, a realistic mix, and inputs the server accepts. */
import { isPublicAddress } from '../../../../src/domain/dimensions/isPublicAddress';
import { parseClientIp } from '../../../../src/domain/dimensions/parseClientIp';
import { AudienceTraffic, REFERRER_MIX, UTM_SHARE } from '../../../../bench/shared/audienceTraffic';
import type { AudienceShape } from '../../../../bench/shared/audienceTraffic';

const shape: AudienceShape = {
  seed: 7,
  visitors: 1_000,
  visitorZipfS: 0.6,
  siteHost: 'bench.example',
  longTailHosts: 200,
  longTailZipfS: 1,
};
const traffic = new AudienceTraffic(shape);
const hits = Array.from({ length: 20_000 }, (_, i) => traffic.hit(i));

function kindOf(referrer: string | undefined): keyof typeof REFERRER_MIX {
  if (referrer === undefined) return 'direct';
  const host = new URL(referrer).hostname;
  if (host === shape.siteHost) return 'internal';
  if (/google|bing|duckduckgo|yahoo/.test(host)) return 'search';
  if (host.startsWith('longtail-')) return 'longTail';
  return 'social';
}

describe('AudienceTraffic', () => {
  it('gives the same hit for the same index, whatever was asked before', () => {
    expect(new AudienceTraffic(shape).hit(12_345)).toEqual(hits[12_345]);
  });

  it.each(Object.entries(REFERRER_MIX))('gives %s referrers about their share (%d) of hits', (kind, share) => {
    const seen = hits.filter((hit) => kindOf(hit.referrer) === kind).length / hits.length;
    expect(Math.abs(seen - share)).toBeLessThan(0.015);
  });

  it('carries UTM values on about their share of hits', () => {
    const seen = hits.filter((hit) => hit.utm !== undefined).length / hits.length;
    expect(Math.abs(seen - UTM_SHARE)).toBeLessThan(0.01);
  });

  it('lets visitors return, the most active most often, each with one User-Agent and one address', () => {
    const byVisitor = new Map<number, Set<string>>();
    const visits = new Map<number, number>();
    for (const hit of hits) {
      visits.set(hit.visitorRank, (visits.get(hit.visitorRank) ?? 0) + 1);
      const seen = byVisitor.get(hit.visitorRank) ?? new Set<string>();
      seen.add(`${hit.userAgent} ${hit.clientIp}`);
      byVisitor.set(hit.visitorRank, seen);
    }
    for (const seen of byVisitor.values()) expect(seen.size).toBe(1);
    expect(visits.size).toBeLessThan(shape.visitors + 1);
    expect(visits.get(0) ?? 0).toBeGreaterThan(3 * (visits.get(99) ?? 0));
  });

  it('gives every visitor a public address the country lookup can place', () => {
    for (const hit of hits.slice(0, 2_000)) expect(isPublicAddress(parseClientIp(hit.clientIp))).toBe(true);
  });
});
