import type { HitLimits } from '../../../../src/domain/Hit';
import { InputRejectedError } from '../../../../src/domain/InputRejectedError';
import { parseHit, parseHitBatch } from '../../../../src/domain/parseHit';
import { RejectReason } from '../../../../src/domain/RejectReason';

const now = Date.parse('2026-11-21T12:00:00Z');
const limits: HitLimits = { maxCount: 1000, maxClockSkewMs: 60_000, maxBatchSize: 3 };
const ok = { site: 'example.com', page: '/', event: 'Signup' };
const props = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: 'v' }));

function rejection(input: Parameters<typeof parseHit>[0], allowEmailProps = false): [RejectReason, string, string?] {
  try {
    parseHit(input, { now, limits: { ...limits, allowEmailProps } });
  } catch (error) {
    if (error instanceof InputRejectedError) return [error.reason, error.message, error.field];
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('parseHit with events', () => {
  it.each([
    [{ ...ok, event: '' }, RejectReason.EVENT_NAME_EMPTY, 'event must not be empty'],
    [
      { ...ok, event: 'x'.repeat(121) },
      RejectReason.EVENT_NAME_TOO_LONG,
      'event must be at most 120 characters, got 121',
    ],
    [
      { ...ok, event: 'a\nb' },
      RejectReason.EVENT_TEXT_HAS_CONTROL,
      'event must not contain control characters, got one at index 1',
    ],
    [{ ...ok, props: props(31) }, RejectReason.EVENT_PROPS_TOO_MANY, 'props must hold at most 30 properties, got 31'],
    [{ ...ok, props: [{ key: '', value: 'v' }] }, RejectReason.PROP_KEY_EMPTY, 'props[0].key must not be empty'],
    [
      { ...ok, props: [{ key: 'k'.repeat(301), value: 'v' }] },
      RejectReason.PROP_KEY_TOO_LONG,
      'props[0].key must be at most 300 characters, got 301',
    ],
    [
      { ...ok, props: [{ key: 'k', value: 'v'.repeat(2001) }] },
      RejectReason.PROP_VALUE_TOO_LONG,
      'props[0].value must be at most 2000 characters, got 2001',
    ],
    [
      {
        ...ok,
        props: [
          { key: 'plan', value: 'a' },
          { key: 'plan', value: 'b' },
        ],
      },
      RejectReason.PROP_KEY_REPEATED,
      'props[1].key must be unique, got "plan" twice',
    ],
    [{ ...ok, props: [{ key: 'k', value: '' }] }, RejectReason.PROP_VALUE_EMPTY, 'props[0].value must not be empty'],
    [
      { ...ok, props: [{ key: 'who', value: 'Ann <ann@example.com>' }] },
      RejectReason.PROP_VALUE_EMAIL,
      'props[0].value must not be an e-mail address (properties are stored as sent; EVENT_PROPS_ALLOW_EMAIL=true allows them)',
    ],
    [
      { ...ok, revenue: { amount: '12,50', currency: 'EUR' } },
      RejectReason.AMOUNT_NOT_DECIMAL,
      'revenue.amount must be a decimal number such as "29.90", got "12,50"',
    ],
    [
      { ...ok, revenue: { amount: '1e3', currency: 'EUR' } },
      RejectReason.AMOUNT_NOT_DECIMAL,
      'revenue.amount must be a decimal number such as "29.90", got "1e3"',
    ],
    [
      { ...ok, revenue: { amount: '-1.00', currency: 'EUR' } },
      RejectReason.AMOUNT_NEGATIVE,
      'revenue.amount must not be negative, got "-1.00"',
    ],
    [
      { ...ok, revenue: { amount: '1.005', currency: 'EUR' } },
      RejectReason.AMOUNT_TOO_PRECISE,
      'revenue.amount must have at most 2 decimals for EUR, got "1.005"',
    ],
    [
      { ...ok, revenue: { amount: '1.5', currency: 'JPY' } },
      RejectReason.AMOUNT_TOO_PRECISE,
      'revenue.amount must have at most 0 decimals for JPY, got "1.5"',
    ],
    [
      { ...ok, revenue: { amount: '99999999999999999', currency: 'EUR' } },
      RejectReason.AMOUNT_TOO_LARGE,
      'revenue.amount must be at most 9007199254740991 minor units, got "99999999999999999"',
    ],
    [
      { ...ok, revenue: { amount: '1', currency: 'eur' } },
      RejectReason.CURRENCY_NOT_ISO_CODE,
      'revenue.currency must be an ISO 4217 code of three capital letters such as "EUR", got "eur"',
    ],
    [
      { site: 'example.com', page: '/', revenue: { amount: '1', currency: 'EUR' } },
      RejectReason.EVENT_MISSING,
      'revenue needs an event: a pageview has no revenue',
    ],
    [
      { site: 'example.com', page: '/', props: [{ key: 'k', value: 'v' }] },
      RejectReason.EVENT_MISSING,
      'props need an event: a pageview has no properties',
    ],
  ])('refuses %j with %s', (input, reason, message) => {
    expect(rejection(input)).toEqual([reason, message, message.split(' ')[0]]);
  });

  it('names the row of a batch', () => {
    try {
      parseHitBatch([{ ...ok }, { ...ok, event: '' }], { now, limits });
      throw new Error('expected a rejection');
    } catch (error) {
      expect((error as InputRejectedError).message).toBe('hits[1].event must not be empty');
      expect((error as InputRejectedError).field).toBe('hits[1].event');
    }
  });

  it('accepts an e-mail-like value when EVENT_PROPS_ALLOW_EMAIL is on', () => {
    const hit = parseHit(
      { ...ok, props: [{ key: 'who', value: 'ann@example.com' }] },
      { now, limits: { ...limits, allowEmailProps: true } },
    );
    expect(hit.event?.props).toEqual([['who', 'ann@example.com']]);
  });

  it.each([
    ['29.90', 'EUR', 2990],
    ['29.9', 'EUR', 2990],
    ['29', 'EUR', 2900],
    ['0.01', 'USD', 1],
    ['1500', 'JPY', 1500],
    ['1.234', 'KWD', 1234],
    ['7', 'XYZ', 700],
  ])('keeps %s %s as %d minor units', (amount, currency, minor) => {
    expect(parseHit({ ...ok, revenue: { amount, currency } }, { now, limits }).event?.revenue).toEqual({
      currency,
      minor,
    });
  });

  it('leaves a pageview without an event', () => {
    expect(parseHit({ site: 'example.com', page: '/' }, { now, limits })).toEqual({
      site: 'example.com',
      page: '/',
      at: now,
      count: 1,
    });
    expect(parseHit({ site: 'example.com', page: '/', props: [] }, { now, limits }).event).toBeUndefined();
  });
});
