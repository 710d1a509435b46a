/**
 * A probe's database: tally's own connection (connectDatabase, so writes go through the writers the server uses)
 * to MONGODB_URI or a fresh embedded server, in a database of its own, counting the commands sent by name.
 */
import { createLogger } from '../../src/logging/createLogger';
import { connectDatabase } from '../../src/store/connectDatabase';
import type { Database } from '../../src/store/connectDatabase';
import { openTarget } from './target';

export interface ProbeDatabase {
  readonly database: Database;
  /** Commands sent since the last `clear()`, by name (`update`, `find`, …). */
  readonly commands: Map<string, number>;
  /** "FerretDB 1.24.2-tally6 patched": the label printed beside every figure. */
  readonly label: string;
  /** Drops the probe's database and stops what was started. */
  close(): Promise<void>;
}

export async function openProbeDatabase(name: string): Promise<ProbeDatabase> {
  const target = await openTarget({ uri: process.env.MONGODB_URI || undefined });
  const commands = new Map<string, number>();
  try {
    const database = await connectDatabase({
      uri: target.uri,
      dbName: `bench_${name}_${process.pid}`,
      logger: createLogger({ level: 'warn', nodeEnv: 'production' }),
      onCommand: (command) => commands.set(command, (commands.get(command) ?? 0) + 1),
    });
    return {
      database,
      commands,
      label: target.label,
      close: async () => {
        await database.db.dropDatabase().catch(() => undefined);
        await database.close();
        await target.stop();
      },
    };
  } catch (error) {
    await target.stop();
    throw error;
  }
}
