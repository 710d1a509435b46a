import { ConfigError } from '../../../src/errors/ConfigError';
import { loadConfig } from '../../../src/config/loadConfig';

describe('retention settings', () => {
  it('keeps everything by default', () => {
    expect(loadConfig({}).retention).toEqual({ minutesDays: undefined, days: undefined });
  });

  it.each([
    [{ RETENTION_MINUTES_DAYS: '30' }, { minutesDays: 30, days: undefined }],
    [{ RETENTION_DAYS: '400' }, { minutesDays: undefined, days: 400 }],
    [
      { RETENTION_MINUTES_DAYS: '7', RETENTION_DAYS: '7' },
      { minutesDays: 7, days: 7 },
    ],
    [
      { RETENTION_MINUTES_DAYS: '7', RETENTION_DAYS: '365' },
      { minutesDays: 7, days: 365 },
    ],
    [
      { RETENTION_MINUTES_DAYS: '', RETENTION_DAYS: '' },
      { minutesDays: undefined, days: undefined },
    ],
  ])('reads %j', (env, expected) => {
    expect(loadConfig(env).retention).toEqual(expected);
  });

  it.each([
    [{ RETENTION_MINUTES_DAYS: '0' }, 'RETENTION_MINUTES_DAYS must be an integer from 1 to 36500, got "0"'],
    [{ RETENTION_DAYS: '0' }, 'RETENTION_DAYS must be an integer from 1 to 36500, got "0"'],
    [{ RETENTION_DAYS: '1.5' }, 'RETENTION_DAYS must be an integer from 1 to 36500, got "1.5"'],
    [{ RETENTION_DAYS: '-3' }, 'RETENTION_DAYS must be an integer from 1 to 36500, got "-3"'],
    [{ RETENTION_MINUTES_DAYS: '36501' }, 'RETENTION_MINUTES_DAYS must be an integer from 1 to 36500, got "36501"'],
    [
      { RETENTION_MINUTES_DAYS: '30', RETENTION_DAYS: '7' },
      'RETENTION_DAYS must be at least RETENTION_MINUTES_DAYS (30) or unset, got "7"',
    ],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
