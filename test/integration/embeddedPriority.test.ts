/**
 * The embedded server's CPU priority (lowerPriority): with a niceness, every thread of the running FerretDB has it,
 * and the server still answers; without one it keeps the default. Read from the kernel's view of each thread.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { MongoClient } from 'mongodb';
import { createLogger } from '../../src/logging/createLogger';
import { lowerPriority } from '../../src/store/embedded/lowerPriority';
import { startFerretdb } from '../../src/store/embedded/startFerretdb';
import { THREAD_NICENESS_READABLE, threadNiceness } from '../support/serverProcess';

const logger = createLogger({ level: 'silent', nodeEnv: 'test' });

/** A node process with a few threads of its own (libuv's pool, V8's workers), until killed. */
async function idleNode(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', "process.stdout.write('up'); setInterval(() => {}, 1000)"], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise((resolve) => child.stdout?.once('data', resolve));
  return child;
}

// Per-thread nice values are Linux's; elsewhere lowerPriority sets the process's one, which os.getPriority reads.
(THREAD_NICENESS_READABLE ? describe : describe.skip)('the embedded server behind tally (Linux /proc)', () => {
  it('gives every thread of the embedded FerretDB the niceness, and it still answers', async () => {
    const database = await startFerretdb({ dataDir: undefined, logger, niceness: 10 });
    const client = new MongoClient(database.uri, { serverSelectionTimeoutMS: 10_000 });
    try {
      const pid = database.pid?.() as number;
      await client
        .db('priority')
        .collection('c')
        .insertOne({ _id: 'a' } as never);
      const niceness = threadNiceness(pid);
      expect(niceness.length).toBeGreaterThan(1);
      expect(new Set(niceness)).toEqual(new Set([10]));
      expect(await client.db('priority').collection('c').countDocuments()).toBe(1);
    } finally {
      await client.close();
      await database.stop();
    }
  });

  it('leaves the embedded FerretDB at the default priority without one', async () => {
    const database = await startFerretdb({ dataDir: undefined, logger });
    try {
      expect(new Set(threadNiceness(database.pid?.() as number))).toEqual(new Set([0]));
    } finally {
      await database.stop();
    }
  });

  it('never raises a priority an operator lowered further, and ignores a process that is gone', async () => {
    const child = await idleNode();
    try {
      const pid = child.pid as number;
      expect(lowerPriority(pid, 15)).toBeGreaterThan(1);
      expect(lowerPriority(pid, 10)).toBe(0);
      expect(new Set(threadNiceness(pid))).toEqual(new Set([15]));
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    expect(lowerPriority(child.pid as number, 10)).toBe(0);
  });
});
