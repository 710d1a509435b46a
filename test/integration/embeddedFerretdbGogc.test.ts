/**
 * The embedded FerretDB runs with GOGC=400 (a third less CPU per upserted document than Go's default; docs/ferretdb.md),
 * unless the operator's environment sets GOGC, which then wins. Read from the running process's own environment.
 */
import fs from 'node:fs';
import { createLogger } from '../../src/logging/createLogger';
import { startFerretdb } from '../../src/store/embedded/startFerretdb';

const logger = createLogger({ level: 'silent', nodeEnv: 'test' });

async function gogcOfEmbeddedFerretdb(): Promise<string | undefined> {
  const database = await startFerretdb({ dataDir: undefined, logger });
  try {
    const pid = database.pid?.();
    if (pid === undefined) throw new Error('the embedded FerretDB has no pid');
    const variables = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    return variables.find((v) => v.startsWith('GOGC='))?.slice('GOGC='.length);
  } finally {
    await database.stop();
  }
}

const previous = process.env.GOGC;
afterEach(() => {
  if (previous === undefined) delete process.env.GOGC;
  else process.env.GOGC = previous;
});

// /proc/<pid>/environ is Linux's: elsewhere there is nothing to read it from.
(fs.existsSync('/proc/self/environ') ? describe : describe.skip)(
  'the embedded FerretDB GC target (Linux /proc)',
  () => {
    it('is 400 by default', async () => {
      delete process.env.GOGC;
      expect(await gogcOfEmbeddedFerretdb()).toBe('400');
    });

    it("is the operator's own where the environment sets one", async () => {
      process.env.GOGC = '150';
      expect(await gogcOfEmbeddedFerretdb()).toBe('150');
    });
  },
);
