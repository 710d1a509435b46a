/**
 * Expiry sweeps on engines without TTL indexes (issue 21): expired ids are found on the background connection, a
 * bounded number at a time, and deleted by `_id` on the writer in commands of at most SWEEP_DELETE_SIZE, so no
 * flush waits behind a scan. On FerretDB the sweep reads in creation order (plan `head`), elsewhere by an index
 * range (plan `range`); both are exercised against the server the global setup chose, whatever its TTL support,
 * by calling the sweeps directly.
 */
import type { Collection, Db, Document } from 'mongodb';
import { CounterStore } from '../../src/store/CounterStore';
import type { Database } from '../../src/store/connectDatabase';
import { RequestLedger, REQUESTS_COLLECTION } from '../../src/store/requestLedger';
import { SECONDS_COLLECTION, secondsDocumentId } from '../../src/store/secondStats';
import { secondsExpiryCutoff } from '../../src/store/secondsRetention';
import { SWEEP_DELETE_SIZE, SWEEP_READ_SIZE, sweepPlanFor } from '../../src/store/ttlOrSweep';
import type { SweepContext } from '../../src/store/ttlOrSweep';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

// Thousands of documents written and decoded on a shared 2-core machine: room, never a timing assertion.
jest.setTimeout(120_000);

const HOUR = 3_600_000;
const MINUTE = 60_000;
const RETENTION = 48 * HOUR;
const NOW = Date.parse('2026-11-21T12:00:00Z');

let database: TestDatabase;

beforeAll(async () => {
  database = await connectTestDatabase('expiry_sweep');
});

afterAll(async () => {
  await database.dropAndClose();
});

/** Minute documents of `site`, one per page, for the minute starting at `minute`, inserted in page order. */
async function insertMinutes(site: string, pages: number, minute: number): Promise<void> {
  const seconds = Object.fromEntries(Array.from({ length: 60 }, (_, s) => [String(s), 1]));
  const documents = Array.from({ length: pages }, (_, p) => ({
    _id: secondsDocumentId(site, `/p${p}`, minute),
    metadata: { date: new Date(minute), site, page: `/p${p}` },
    minute: 60,
    seconds,
  }));
  for (let i = 0; i < documents.length; i += 500) {
    await database.db.collection(SECONDS_COLLECTION).insertMany(documents.slice(i, i + 500) as never);
  }
}

const countSite = (site: string): Promise<number> =>
  database.db.collection(SECONDS_COLLECTION).countDocuments({ 'metadata.site': site });

/** A Database whose background and writer Dbs record which collection methods the sweep calls on each. */
function recording(base: Database): { database: Database; calls: string[] } {
  const calls: string[] = [];
  const wrap = (db: Db, role: string): Db =>
    new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'collection') return Reflect.get(target, property, receiver) as unknown;
        return (name: string) =>
          new Proxy(target.collection(name), {
            get(collection: Collection<Document>, method, inner) {
              const value = Reflect.get(collection, method, inner) as unknown;
              if (typeof value !== 'function' || typeof method !== 'string') return value;
              return (...args: unknown[]) => {
                if (['find', 'deleteMany', 'bulkWrite'].includes(method)) calls.push(`${role}.${method}`);
                return (value as (...a: unknown[]) => unknown).apply(collection, args);
              };
            },
          });
      },
    });
  return {
    database: {
      ...base,
      db: wrap(base.db, 'main'),
      writerDb: (name) => wrap(base.writerDb(name), 'writer'),
      backgroundDb: () => wrap(base.backgroundDb(), 'background'),
    },
    calls,
  };
}

describe('expiry sweeps against a real server', () => {
  it('gives background reads a connection of their own where the write policy has a single writer', () => {
    const background = database.backgroundDb();
    if (database.policy.singleWriter) {
      expect(background.client).not.toBe(database.client);
      expect(background.client).not.toBe(database.writerDb(SECONDS_COLLECTION).client);
      expect(database.backgroundDb().client).toBe(background.client);
    } else {
      expect(background).toBe(database.db);
    }
  });

  it('deletes every expired minute document in commands of at most 250 ids, found on the background connection, and no live one', async () => {
    const old = NOW - RETENTION - 2 * HOUR;
    await insertMinutes('expired', 1_200, old);
    await insertMinutes('live', 300, NOW - MINUTE);
    const { database: watched, calls } = recording(database);
    const store = new CounterStore(watched, { secondsRetentionMs: RETENTION });
    const steps: string[] = [];
    const context: SweepContext = {
      stopped: () => false,
      watch: (what, step) => {
        steps.push(what);
        return step();
      },
    };
    database.commands.clear();
    expect(await store.sweepSeconds(NOW, context)).toBe(1_200);
    expect(await countSite('expired')).toBe(0);
    expect(await countSite('live')).toBe(300);
    // 1,200 ids in commands of 250: five deletes, each a step; reads of at most 500 documents.
    expect(database.commands.get('delete')).toBe(Math.ceil(1_200 / SWEEP_DELETE_SIZE));
    expect(steps.filter((step) => step.startsWith('deleting')).length).toBe(5);
    expect(steps.filter((step) => step.startsWith('deleting')).every((s) => /^deleting (250|200) /.test(s))).toBe(true);
    expect(steps.filter((step) => !step.startsWith('deleting')).length).toBeLessThanOrEqual(
      Math.ceil(1_500 / SWEEP_READ_SIZE),
    );
    expect(new Set(calls.filter((call) => call.endsWith('.find')))).toEqual(new Set(['background.find']));
    expect(calls.every((call) => call.endsWith('.find') || call.startsWith('writer.'))).toBe(true);
  });

  it('deletes a minute document created late behind live ones as its plan says: at once by range, after them by head', async () => {
    await insertMinutes('ahead', SWEEP_READ_SIZE + 100, NOW - MINUTE);
    await insertMinutes('late', 1, NOW - RETENTION - 2 * HOUR);
    const store = new CounterStore(database, { secondsRetentionMs: RETENTION });
    if (sweepPlanFor(database.policy.reads).scan === 'range') {
      expect(await store.sweepSeconds(NOW)).toBe(1);
      expect(await countSite('late')).toBe(0);
      return;
    }
    // Head: the first read holds live documents only, so the sweep stops there…
    expect(await store.sweepSeconds(NOW)).toBe(0);
    expect(await countSite('late')).toBe(1);
    // …and the late one goes once everything created before it has expired: within a retention window.
    const later = NOW + RETENTION + 2 * MINUTE;
    expect(secondsExpiryCutoff(later, RETENTION)).toBeGreaterThan(NOW - MINUTE);
    expect(await store.sweepSeconds(later)).toBeGreaterThanOrEqual(SWEEP_READ_SIZE + 101);
    expect(await countSite('late')).toBe(0);
    expect(await countSite('ahead')).toBe(0);
  });

  it('ends a sweep at its next step once stopped', async () => {
    await insertMinutes('stopped', 1_000, NOW - RETENTION - 2 * HOUR);
    const store = new CounterStore(database, { secondsRetentionMs: RETENTION });
    let deletes = 0;
    const context: SweepContext = {
      stopped: () => deletes >= 1,
      watch: (what, step) => {
        if (what.startsWith('deleting')) deletes += 1;
        return step();
      },
    };
    expect(await store.sweepSeconds(NOW, context)).toBe(SWEEP_DELETE_SIZE);
    expect(await countSite('stopped')).toBe(1_000 - SWEEP_DELETE_SIZE);
    expect(await store.sweepSeconds(NOW)).toBe(1_000 - SWEEP_DELETE_SIZE);
  });

  it('sweeps idempotency keys older than the window and keeps the others, whichever process claimed them', async () => {
    const windowMs = 24 * HOUR;
    const ledger = new RequestLedger(database, { windowMs });
    const attempt = { lane: 'lane1', seq: 1 };
    const claims = (prefix: string, n: number, now: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, fingerprint: 'fp', now }));
    const old = NOW - windowMs - HOUR;
    for (let i = 0; i < 3; i++) await ledger.claim(claims(`old${i}-`, 300, old), attempt, { now: old, leaseMs: 1_000 });
    await ledger.claim(claims('fresh-', 50, NOW), attempt, { now: NOW, leaseMs: 1_000 });
    database.commands.clear();
    expect(await ledger.sweep(NOW)).toBe(900);
    expect(database.commands.get('delete')).toBe(Math.ceil(900 / SWEEP_DELETE_SIZE));
    const left = await database.db
      .collection(REQUESTS_COLLECTION)
      .find({}, { projection: { _id: 1 } })
      .toArray();
    expect(left.map((d) => String(d._id)).sort()).toEqual(
      claims('fresh-', 50, NOW)
        .map((c) => c.id)
        .sort(),
    );
  });
});
