import { parseMsec, parseTimeIso8601, parseTimeLocal } from '../../../src/accesslog/parseLogTime';

describe('parseTimeLocal', () => {
  it.each([
    ['10/Oct/2000:13:55:36 -0700', '2000-10-10T20:55:36.000Z'],
    ['10/Oct/2000:13:55:36 +0000', '2000-10-10T13:55:36.000Z'],
    ['01/Jan/2026:01:30:00 +0200', '2025-12-31T23:30:00.000Z'],
    ['31/Dec/2025:23:59:59 -0130', '2026-01-01T01:29:59.000Z'],
    ['29/Feb/2024:12:00:00 +0530', '2024-02-29T06:30:00.000Z'],
    ['01/Mar/2026:00:00:00 +1400', '2026-02-28T10:00:00.000Z'],
    ['31/Dec/2026:23:59:60 +0000', '2027-01-01T00:00:00.000Z'],
  ])('reads %s with its offset as %s', (text, iso) => {
    expect(new Date(parseTimeLocal(text) as number).toISOString()).toBe(iso);
  });

  it.each([
    ['29/Feb/2025:12:00:00 +0000', 'no 29 February in 2025'],
    ['31/Apr/2026:12:00:00 +0000', 'April has 30 days'],
    ['00/Jan/2026:12:00:00 +0000', 'day 0'],
    ['10/Foo/2026:12:00:00 +0000', 'unknown month'],
    ['10/oct/2026:12:00:00 +0000', 'month names are capitalised'],
    ['10/Oct/2026:24:00:00 +0000', 'hour 24'],
    ['10/Oct/2026:12:60:00 +0000', 'minute 60'],
    ['10/Oct/2026:12:00:61 +0000', 'second 61'],
    ['10/Oct/2026:12:00:00 +2500', 'offset beyond 14 hours'],
    ['10/Oct/2026:12:00:00 0000', 'offset without sign'],
    ['10/Oct/2026:12:00:00', 'no offset'],
    ['10/Oct/1969:12:00:00 +0000', 'before 1970'],
    ['1x/Oct/2026:12:00:00 +0000', 'a letter in the day'],
    ['', 'empty'],
  ])('refuses %s (%s)', (text) => {
    expect(parseTimeLocal(text)).toBeUndefined();
  });
});

describe('parseTimeIso8601', () => {
  it.each([
    ['2000-10-10T13:55:36-07:00', '2000-10-10T20:55:36.000Z'],
    ['2026-01-01T00:30:00+01:00', '2025-12-31T23:30:00.000Z'],
    ['2026-01-01T00:30:00Z', '2026-01-01T00:30:00.000Z'],
    ['2026-01-01T00:30:00+0100', '2025-12-31T23:30:00.000Z'],
    ['2026-01-01T00:30:00.250+00:00', '2026-01-01T00:30:00.250Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(new Date(parseTimeIso8601(text) as number).toISOString()).toBe(iso);
  });

  it.each([['2026-02-30T00:00:00Z'], ['2026-01-01T00:00:00'], ['2026-01-01T00:00:00+1:00'], ['2026/01/01T00:00:00Z']])(
    'refuses %s',
    (text) => {
      expect(parseTimeIso8601(text)).toBeUndefined();
    },
  );
});

describe('parseMsec', () => {
  it.each([
    ['1700000000.123', 1_700_000_000_123],
    ['1700000000', 1_700_000_000_000],
  ])('reads %s', (text, ms) => {
    expect(parseMsec(text)).toBe(ms);
  });

  it.each([['-1'], ['1e9'], ['17000.1234'], ['']])('refuses %s', (text) => {
    expect(parseMsec(text)).toBeUndefined();
  });
});
