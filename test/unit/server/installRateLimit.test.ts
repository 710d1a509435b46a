import { effectiveRateLimits } from '../../../src/server/installRateLimit';

const CONFIGURED = { ratePerKey: 60_000, ratePerAddress: 6_000, rateWindowMs: 60_000 };

describe('effectiveRateLimits', () => {
  it.each([
    ['loopback only, no keys: the machine itself is the one client', { keys: false, loopbackOnly: true }, 0],
    ['loopback only, with keys', { keys: true, loopbackOnly: true }, 6_000],
    ['a public address without keys (TALLY_AUTH=off)', { keys: false, loopbackOnly: false }, 6_000],
    ['a public address with keys', { keys: true, loopbackOnly: false }, 6_000],
  ])('per address: %s → %i', (_mode, exposure, perAddress) => {
    expect(effectiveRateLimits(CONFIGURED, exposure)).toEqual({ ...CONFIGURED, ratePerAddress: perAddress });
  });
});
