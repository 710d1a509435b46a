import { loadConfig } from '../../../src/config/loadConfig';

describe('second-level configuration', () => {
  it('counts seconds with a 48-hour window and follows PREALLOCATE by default', () => {
    expect(loadConfig({}).seconds).toEqual({ enabled: true, preallocate: false, retentionHours: 48 });
    expect(loadConfig({ PREALLOCATE: 'true' }).seconds.preallocate).toBe(true);
    expect(loadConfig({ PREALLOCATE: 'true', SECONDS_PREALLOCATE: 'false' }).seconds.preallocate).toBe(false);
    expect(loadConfig({ SECONDS_ENABLED: '0', SECONDS_RETENTION_HOURS: '1' }).seconds).toMatchObject({
      enabled: false,
      retentionHours: 1,
    });
  });

  it.each([
    [{ SECONDS_ENABLED: 'on' }, 'SECONDS_ENABLED must be true, false, 1 or 0, got "on"'],
    [{ SECONDS_PREALLOCATE: 'yes' }, 'SECONDS_PREALLOCATE must be true, false, 1 or 0, got "yes"'],
    [{ SECONDS_RETENTION_HOURS: '0' }, 'SECONDS_RETENTION_HOURS must be an integer from 1 to 8760, got "0"'],
    [{ SECONDS_RETENTION_HOURS: '1.5' }, 'SECONDS_RETENTION_HOURS must be an integer from 1 to 8760, got "1.5"'],
  ])('rejects %o naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
