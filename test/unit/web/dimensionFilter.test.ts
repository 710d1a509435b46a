import { describeFilter, filterParam, parseFilterParam, planFilter } from '../../../web/dashboard/dimensionFilter';
import { findRange } from '../../../web/dashboard/ranges';
import type { Granularity } from '../../../web/dashboard/ranges';

describe('the filter in the URL', () => {
  it.each([
    ['source:Google', { dimension: 'SOURCE', value: 'Google' }],
    ['utm_campaign:spring sale', { dimension: 'UTM_CAMPAIGN', value: 'spring sale' }],
    ['COUNTRY:DE', { dimension: 'COUNTRY', value: 'DE' }],
    ['source:https://x.example:8080', { dimension: 'SOURCE', value: 'https://x.example:8080' }],
    ['source:(direct)', { dimension: 'SOURCE', value: '(direct)' }],
  ])('reads %j', (param, expected) => {
    expect(parseFilterParam(param)).toEqual(expected);
  });

  it.each([null, '', 'source', 'source:', ':Google', 'page:/x', 'referrer:Google'])('ignores %j', (param) => {
    expect(parseFilterParam(param)).toBeUndefined();
  });

  it('writes what it reads', () => {
    const filter = { dimension: 'UTM_CAMPAIGN', value: 'a:b' } as const;
    expect(filterParam(filter)).toBe('utm_campaign:a:b');
    expect(parseFilterParam(filterParam(filter))).toEqual(filter);
    expect(describeFilter(filter)).toBe('UTM campaign: a:b');
  });
});

describe('the granularity a charted value takes', () => {
  const google = { dimension: 'SOURCE', value: 'Google' } as const;

  it.each([
    ['7d', 'HOUR', 'DAY', true],
    ['7d', 'DAY', 'DAY', false],
    ['30d', 'HOUR', 'DAY', true],
    ['30d', 'WEEK', 'WEEK', false],
    ['365d', 'MONTH', 'MONTH', false],
  ] as Array<[string, Granularity, Granularity, boolean]>)(
    'over %s at %s charts by %s (switched: %s)',
    (range, granularity, expected, switched) => {
      expect(planFilter(google, findRange(range), granularity)).toEqual({ granularity: expected, switched });
    },
  );

  it.each([
    ['15m', 'SECOND', 'last 15 minutes'],
    ['1h', 'MINUTE', 'last hour'],
    ['24h', 'HOUR', 'last 24 hours'],
  ] as Array<[string, Granularity, string]>)('over %s at %s says why it cannot', (range, granularity, label) => {
    expect(planFilter(google, findRange(range), granularity)).toEqual({
      reason: `source: Google cannot be charted over the ${label}: hits per source are counted per UTC day, so they chart by day, week or month. Pick “Last 7 days” or longer.`,
    });
  });
});
