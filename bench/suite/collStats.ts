/** The collStats figures the report uses, where the engine has the command. */
import type { Db } from 'mongodb';

export interface CollStats {
  readonly count: number;
  readonly size: number;
  readonly storageSize: number;
  readonly avgObjSize: number;
  readonly totalIndexSize: number;
}

/** collStats where the engine has it (FerretDB reports SQLite table sizes of its JSON, not BSON). */
export async function collStats(db: Db, name: string): Promise<CollStats | undefined> {
  try {
    const stats = await db.command({ collStats: name });
    return {
      count: Number(stats.count ?? 0),
      size: Number(stats.size ?? 0),
      storageSize: Number(stats.storageSize ?? 0),
      avgObjSize: Number(stats.avgObjSize ?? 0),
      totalIndexSize: Number(stats.totalIndexSize ?? 0),
    };
  } catch {
    return undefined;
  }
}
