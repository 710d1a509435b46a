import { loadConfig } from '../../../src/config/loadConfig';

describe('impression settings', () => {
  it('defaults to batches of 10,000, counts up to 1,000,000 and pages of 100', () => {
    expect(loadConfig({}).impressions).toEqual({ maxBatchSize: 10_000, maxCount: 1_000_000, maxPageSize: 100 });
  });

  it('reads IMPRESSIONS_MAX_BATCH, IMPRESSIONS_MAX_COUNT and IMPRESSIONS_MAX_PAGE', () => {
    const env = { IMPRESSIONS_MAX_BATCH: '500', IMPRESSIONS_MAX_COUNT: '7', IMPRESSIONS_MAX_PAGE: '1000' };
    expect(loadConfig(env).impressions).toEqual({ maxBatchSize: 500, maxCount: 7, maxPageSize: 1000 });
  });

  it.each([
    ['IMPRESSIONS_MAX_BATCH', '100001', 'IMPRESSIONS_MAX_BATCH must be an integer from 1 to 100000, got "100001"'],
    ['IMPRESSIONS_MAX_BATCH', '0', 'IMPRESSIONS_MAX_BATCH must be an integer from 1 to 100000, got "0"'],
    [
      'IMPRESSIONS_MAX_COUNT',
      '2147483648',
      'IMPRESSIONS_MAX_COUNT must be an integer from 1 to 2147483647, got "2147483648"',
    ],
    ['IMPRESSIONS_MAX_PAGE', 'ten', 'IMPRESSIONS_MAX_PAGE must be an integer from 1 to 1000, got "ten"'],
  ])('rejects %s=%s', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
