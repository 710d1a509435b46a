import { SerialQueue } from '../../../src/ingest/SerialQueue';

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('SerialQueue', () => {
  it('starts a task only after the previous one settled, in submission order', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const first = deferred();
    const a = queue.run(async () => {
      log.push('a start');
      await first.promise;
      log.push('a end');
    });
    const b = queue.run(async () => {
      log.push('b start');
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['a start']);
    first.resolve();
    await Promise.all([a, b]);
    expect(log).toEqual(['a start', 'a end', 'b start']);
  });

  it('passes a failure to its caller and keeps running later tasks', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(() => Promise.reject(new Error('boom')));
    const next = queue.run(() => Promise.resolve(42));
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe(42);
  });
});
