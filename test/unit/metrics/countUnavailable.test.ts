/** What tally_unavailable_total counts: one SERVICE_UNAVAILABLE answer, by the closed list of causes. */
import { countUnavailable } from '../../../src/metrics/countUnavailable';
import { createMetrics } from '../../../src/metrics/createMetrics';

async function counted(cause: string | undefined): Promise<Array<Record<string, unknown>>> {
  const metrics = createMetrics();
  countUnavailable(metrics, cause);
  return (await metrics.unavailable.get()).values.map(({ labels, value }) => ({ ...labels, value }));
}

describe('countUnavailable', () => {
  it.each(['not_ready', 'timeout', 'connection_wait', 'refused', 'no_primary', 'write_concern', 'closed', 'other'])(
    'counts an answer caused by %s once, labelled by its cause',
    async (cause) => {
      expect(await counted(cause)).toEqual([{ cause, value: 1 }]);
    },
  );

  it('counts an unknown cause as other, so the label set stays bounded', async () => {
    expect(await counted('something new')).toEqual([{ cause: 'other', value: 1 }]);
  });

  it('counts nothing for an answer without SERVICE_UNAVAILABLE', async () => {
    expect(await counted(undefined)).toEqual([]);
  });
});
