import { ConfigError } from '../../../src/errors/ConfigError';
import { loadConfig } from '../../../src/config/loadConfig';

describe('visit settings', () => {
  it('counts visits with a 30-minute timeout by default', () => {
    expect(loadConfig({}).visits).toEqual({ enabled: true, timeoutMinutes: 30 });
  });

  it.each([
    [{ VISIT_TIMEOUT_MINUTES: '1' }, { enabled: true, timeoutMinutes: 1 }],
    [{ VISIT_TIMEOUT_MINUTES: '1440' }, { enabled: true, timeoutMinutes: 1_440 }],
    [{ VISITS_ENABLED: 'false' }, { enabled: false, timeoutMinutes: 30 }],
  ])('reads %j', (env, expected) => {
    expect(loadConfig(env).visits).toEqual(expected);
  });

  it.each(['0', '1441', '1.5', '-3', 'half an hour'])('refuses VISIT_TIMEOUT_MINUTES=%j naming it', (value) => {
    const load = (): unknown => loadConfig({ VISIT_TIMEOUT_MINUTES: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(`VISIT_TIMEOUT_MINUTES must be an integer from 1 to 1440, got "${value}"`);
  });
});
