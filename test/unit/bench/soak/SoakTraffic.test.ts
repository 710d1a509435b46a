import { parse } from 'graphql';
import { SOAK_SITE, soakPage, SoakTraffic } from '../../../../bench/soak/SoakTraffic';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const settings = { pages: 100, keyedPercent: 10, visitors: 0, dimensions: false, seed: 7 };

describe('SoakTraffic', () => {
  it('sends the same hits for the same seed, on the site, a fifth of them with an `at` in the last hour', () => {
    const stream = (seed: number) => {
      const traffic = new SoakTraffic({ ...settings, seed });
      return Array.from({ length: 2_000 }, (_, i) => traffic.hit(i, NOW).variables);
    };
    expect(stream(7)).toEqual(stream(7));
    const hits = stream(7);
    expect(hits.every((v) => v.site === SOAK_SITE)).toBe(true);
    const late = hits.filter((v) => typeof v.at === 'string').map((v) => Date.parse(v.at as string));
    expect(late.length / hits.length).toBeGreaterThan(0.15);
    expect(late.length / hits.length).toBeLessThan(0.25);
    expect(late.every((at) => at <= NOW && at > NOW - 3_600_000)).toBe(true);
  });

  it('gives popular pages most hits (Zipf) and keys about the share asked for, each key once', () => {
    const traffic = new SoakTraffic(settings);
    const stream = Array.from({ length: 5_000 }, (_, i) => traffic.hit(i, NOW).variables);
    const top = stream.filter((v) => v.page === soakPage(0)).length;
    const tail = stream.filter((v) => v.page === soakPage(99)).length;
    expect(top).toBeGreaterThan(10 * tail);
    const keys = stream.map((v) => v.key).filter((k): k is string => typeof k === 'string');
    expect(keys.length / stream.length).toBeGreaterThan(0.07);
    expect(keys.length / stream.length).toBeLessThan(0.13);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each([
    ['no visitor or dimension fields by default', { visitors: 0, dimensions: false }, []],
    ['a visitor when asked', { visitors: 50, dimensions: false }, ['visitor']],
    ['the dimension inputs when asked', { visitors: 0, dimensions: true }, ['referrer', 'userAgent', 'clientIp']],
  ])('declares and sends %s', (_what, extra, fields) => {
    const hit = new SoakTraffic({ ...settings, ...extra }).hit(0, NOW);
    for (const field of ['visitor', 'referrer', 'userAgent', 'clientIp']) {
      expect(hit.query.includes(`${field}: $${field}`)).toBe(fields.includes(field));
      expect(field in hit.variables).toBe(fields.includes(field));
    }
    expect(() => parse(hit.query)).not.toThrow();
  });

  it('alternates dashboards with the range inlined and as variables, both valid documents', () => {
    const traffic = new SoakTraffic(settings);
    const inline = traffic.dashboard(0, NOW);
    const variables = traffic.dashboard(1, NOW);
    expect(inline.query).toContain('from: "2026-11-24T11:00:00Z"');
    expect(inline.variables).toEqual({});
    expect(variables.variables).toEqual({ from: '2026-11-24T11:00:00Z', to: '2026-11-24T12:01:00Z' });
    expect(() => [inline, variables, { query: SoakTraffic.liveQuery() }].map((d) => parse(d.query))).not.toThrow();
  });
});
