/** A database of its own for one test file, on the server the global setup chose; dropped on close. */
import { createLogger } from '../../src/logging/createLogger';
import { connectDatabase } from '../../src/store/connectDatabase';
import type { Database } from '../../src/store/connectDatabase';
import type { WritePolicyOverrides } from '../../src/store/WritePolicy';

export interface TestDatabase extends Database {
  /** Commands sent since the last reset, by name. */
  readonly commands: Map<string, number>;
  dropAndClose(): Promise<void>;
}

export function testDatabaseName(label: string): string {
  return `t_${label.replace(/[^A-Za-z0-9]/g, '_').slice(0, 30)}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
}

export function testMongoUri(): string {
  const uri = process.env.MONGODB_URI;
  if (!uri) throw new Error('MONGODB_URI is not set: run the tests through jest (its global setup starts a server)');
  return uri;
}

/** `policy` changes the engine's write policy as DOCUMENT_TARGETING would (or forces a single connection). */
export async function connectTestDatabase(label: string, policy?: WritePolicyOverrides): Promise<TestDatabase> {
  const commands = new Map<string, number>();
  const database = await connectDatabase({
    uri: testMongoUri(),
    dbName: testDatabaseName(label),
    logger: createLogger({ level: 'silent', nodeEnv: 'test' }),
    onCommand: (name) => commands.set(name, (commands.get(name) ?? 0) + 1),
    policy,
  });
  return {
    ...database,
    commands,
    async dropAndClose() {
      await database.db.dropDatabase().catch(() => undefined);
      await database.close();
    },
  };
}
