/**
 * A driver client that counts what crosses the wire: commands by name, documents returned by find,
 * aggregate and getMore, and reply bytes (BSON size of each reply). Used for the direct-driver variants
 * and to measure what our store's queries read.
 */
import { BSON, MongoClient } from 'mongodb';
import type { CommandStartedEvent, CommandSucceededEvent, Db, Document } from 'mongodb';

/** A read command as sent: enough to ask the server, with explain, how many documents it examined. */
export interface CapturedRead {
  readonly db: string;
  readonly collection: string;
  readonly filter?: Document;
  readonly pipeline?: Document[];
}

/** Most reads kept per capture (a 20-series dashboard on FerretDB sends 160 point lookups). */
const MAX_CAPTURED = 1_000;

export interface WireCounts {
  commands: Record<string, number>;
  documentsReturned: number;
  replyBytes: number;
}

const WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify']);

export class MonitoredClient {
  readonly client: MongoClient;
  private counts: WireCounts = emptyCounts();
  private captured: CapturedRead[] | undefined;

  constructor(uri: string, options: { maxPoolSize: number }) {
    this.client = new MongoClient(uri, {
      maxPoolSize: options.maxPoolSize,
      monitorCommands: true,
      appName: 'tally-bench',
      serverSelectionTimeoutMS: 10_000,
    });
    this.client.on('commandStarted', (event) => {
      this.counts.commands[event.commandName] = (this.counts.commands[event.commandName] ?? 0) + 1;
      if (this.captured && this.captured.length < MAX_CAPTURED) this.capture(event);
    });
    this.client.on('commandSucceeded', (event) => this.noteReply(event));
  }

  async connect(): Promise<this> {
    await this.client.connect();
    return this;
  }

  db(name: string): Db {
    return this.client.db(name);
  }

  /** Counts since the previous call, and starts counting afresh. */
  take(): WireCounts {
    const counts = this.counts;
    this.counts = emptyCounts();
    return counts;
  }

  /** Starts keeping the find and aggregate commands sent, until stopCapture. */
  startCapture(): void {
    this.captured = [];
  }

  stopCapture(): CapturedRead[] {
    const captured = this.captured ?? [];
    this.captured = undefined;
    return captured;
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private capture(event: CommandStartedEvent): void {
    const command = event.command as Document;
    if (event.commandName === 'find')
      this.captured?.push({ db: event.databaseName, collection: String(command.find), filter: command.filter ?? {} });
    else if (event.commandName === 'aggregate')
      this.captured?.push({
        db: event.databaseName,
        collection: String(command.aggregate),
        pipeline: command.pipeline as Document[],
      });
  }

  private noteReply(event: CommandSucceededEvent): void {
    if (!['find', 'aggregate', 'getMore'].includes(event.commandName)) return;
    const reply = event.reply as { cursor?: { firstBatch?: unknown[]; nextBatch?: unknown[] } } | undefined;
    const batch = reply?.cursor?.firstBatch ?? reply?.cursor?.nextBatch ?? [];
    this.counts.documentsReturned += batch.length;
    this.counts.replyBytes += BSON.calculateObjectSize(event.reply as BSON.Document);
  }
}

export function emptyCounts(): WireCounts {
  return { commands: {}, documentsReturned: 0, replyBytes: 0 };
}

export function writeCommands(counts: Readonly<Record<string, number>>): number {
  let total = 0;
  for (const [name, n] of Object.entries(counts)) if (WRITE_COMMANDS.has(name)) total += n;
  return total;
}
