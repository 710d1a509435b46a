import type { HitLimits } from '../../../../src/domain/Hit';
import type { HitColumns } from '../../../../src/domain/HitColumns';
import { InputRejectedError } from '../../../../src/domain/InputRejectedError';
import { parseHitColumns } from '../../../../src/domain/parseHitColumns';
import { RejectReason } from '../../../../src/domain/RejectReason';

const now = Date.parse('2026-11-21T12:00:00Z');
const limits: HitLimits = { maxCount: 1000, maxClockSkewMs: 60_000, maxBatchSize: 10 };
const base: HitColumns = { sites: ['example.com'], pages: ['/', '/buy'], pageIndex: [0, 1, 1] };

function refusal(columns: HitColumns): [RejectReason, string] {
  try {
    parseHitColumns(columns, { now, limits, path: 'columns' });
  } catch (error) {
    if (error instanceof InputRejectedError) return [error.reason, error.message];
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('parseHitColumns with events', () => {
  it('gives each row its event, properties and revenue from the dictionaries', () => {
    const hits = parseHitColumns(
      {
        ...base,
        events: ['Signup', 'Purchase'],
        eventIndex: [-1, 0, 1],
        properties: [[{ key: 'plan', value: 'pro' }]],
        propertiesIndex: [-1, 0, 0],
        revenues: [{ amount: '29.90', currency: 'EUR' }],
        revenueIndex: [-1, -1, 0],
      },
      { now, limits },
    );
    expect(hits.map((h) => h.event)).toEqual([
      undefined,
      { name: 'Signup', props: [['plan', 'pro']] },
      { name: 'Purchase', props: [['plan', 'pro']], revenue: { currency: 'EUR', minor: 2990 } },
    ]);
  });

  it.each<[Partial<HitColumns>, RejectReason, string]>([
    [{ events: [''], eventIndex: [0, 0, 0] }, RejectReason.EVENT_NAME_EMPTY, 'columns.events[0] must not be empty'],
    [
      { events: ['A'] },
      RejectReason.COLUMNS_MISMATCH,
      'columns.eventIndex is required when events holds names, got 1 names and no eventIndex',
    ],
    [
      { events: ['A'], eventIndex: [0, 1, 0] },
      RejectReason.INDEX_OUT_OF_RANGE,
      'columns.eventIndex[1] must be -1 (none) or an index from 0 to 0, got 1',
    ],
    [
      { events: ['A'], eventIndex: [0] },
      RejectReason.COLUMNS_MISMATCH,
      'columns.eventIndex must hold one value per hit (3, the length of pageIndex), got 1',
    ],
    [
      { events: ['A'], eventIndex: [0, -1, 0], revenues: [{ amount: '1', currency: 'EUR' }], revenueIndex: [0, 0, 0] },
      RejectReason.EVENT_MISSING,
      'columns.revenueIndex[1] must be -1 for a pageview (eventIndex[1] is -1 or absent), got 0',
    ],
    [
      {
        events: ['A'],
        eventIndex: [0, 0, 0],
        properties: [[{ key: 'k', value: 'x'.repeat(2001) }]],
        propertiesIndex: [0, 0, 0],
      },
      RejectReason.PROP_VALUE_TOO_LONG,
      'columns.properties[0][0].value must be at most 2000 characters, got 2001',
    ],
    [
      { events: ['A'], eventIndex: [0, 0, 0], revenues: [{ amount: '1', currency: 'EURO' }], revenueIndex: [0, 0, 0] },
      RejectReason.CURRENCY_NOT_ISO_CODE,
      'columns.revenues[0].currency must be an ISO 4217 code of three capital letters such as "EUR", got "EURO"',
    ],
  ])('refuses %j', (columns, reason, message) => {
    expect(refusal({ ...base, ...columns })).toEqual([reason, message]);
  });
});
