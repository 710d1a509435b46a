/** The memory DimensionCounting's admission takes stays bounded, at the price its header states. */
import type { DimensionValues } from '../../../src/domain/dimensions/Dimension';
import { DimensionCounting } from '../../../src/store/DimensionCounting';
import { PendingUpdates } from '../../../src/store/PendingUpdates';

const VALUES: DimensionValues = {
  source: 'a.example',
  utmSource: '(none)',
  utmMedium: '(none)',
  utmCampaign: '(none)',
  browser: 'Firefox',
  os: 'Linux',
  device: 'desktop',
  country: 'DE',
};
const idOf = (site: string, page: string, period: number) => `${period}/${site}${page}`;

function count(counting: DimensionCounting, page: string, values: DimensionValues = VALUES): Record<string, number> {
  const pending = new PendingUpdates();
  const document = pending.document('s', page, 0, idOf);
  counting.count(document, counting.slotsOf(values, []), 1, 0, 0);
  return document.operands().inc;
}

describe('DimensionCounting', () => {
  it('tracks admitted keys only for dimensions whose values can outnumber the cap', () => {
    // device has 6 values at most; country 677 (A–Z pairs and "(unknown)"): untracked at a cap of 1000.
    const roomy = new DimensionCounting({ maxValues: 1000, visitorDimensions: [] });
    count(roomy, '/p');
    expect(roomy.tracking).toEqual({ documents: 1, keys: 6 });
    const tight = new DimensionCounting({ maxValues: 10, visitorDimensions: [] });
    count(tight, '/p');
    expect(tight.tracking).toEqual({ documents: 1, keys: 7 });
  });

  it('forgets the least recently written documents past maxTrackedKeys; a forgotten one admits afresh', () => {
    const counting = new DimensionCounting({ maxValues: 1, visitorDimensions: [], maxTrackedKeys: 16 });
    count(counting, '/old');
    expect(count(counting, '/old', { ...VALUES, source: 'b.example' })).toMatchObject({ 'd.source.(other)': 1 });
    count(counting, '/new');
    expect(counting.tracking).toEqual({ documents: 2, keys: 16 });
    count(counting, '/newer');
    // /old went first: 16 keys (8 a document at a cap of 1) are all the bound allows.
    expect(counting.tracking).toEqual({ documents: 2, keys: 16 });
    expect(count(counting, '/old', { ...VALUES, source: 'b.example' })).toMatchObject({ 'd.source.b%2Eexample': 1 });
  });

  it('counts the value "(other)" itself under (other), never as a key of its own', () => {
    const counting = new DimensionCounting({ maxValues: 1, visitorDimensions: [] });
    expect(count(counting, '/p', { ...VALUES, utmCampaign: '(other)' })).toMatchObject({ 'd.utmCampaign.(other)': 1 });
    expect(count(counting, '/p', { ...VALUES, utmCampaign: 'spring' })).toMatchObject({ 'd.utmCampaign.spring': 1 });
  });
});
