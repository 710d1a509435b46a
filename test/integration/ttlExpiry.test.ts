/**
 * The TTL branch of expiry (src/store/ttlOrSweep.ts), which the write policy picks only where the engine has TTL
 * indexes (MongoDB), run against whatever server the global setup chose by forcing the policy's expiry to `ttl`
 * (issue 31: it ran only when someone set MONGODB_URI by hand). On MongoDB the idempotency ledger gets a TTL index
 * of its window, and a changed window adjusts it in place; FerretDB refuses the index (code 238, NotImplemented), so
 * the same code falls back to the sweep, which is why its policy sweeps. Which parts run only on real MongoDB:
 * docs/ferretdb.md "Expiry sweeps".
 */
import { MongoServerError } from 'mongodb';
import type { Database } from '../../src/store/connectDatabase';
import { RequestLedger, REQUESTS_COLLECTION } from '../../src/store/requestLedger';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const HOUR = 3_600_000;
const TTL_INDEX = 'expire_after_window';

let database: TestDatabase;

beforeAll(async () => {
  database = await connectTestDatabase('ttl_expiry');
  // Where the sweep needs no index (FerretDB) nothing else creates the collection whose indexes are read below.
  await database.db.createCollection(REQUESTS_COLLECTION);
});

afterAll(async () => {
  await database.dropAndClose();
});

/** The same database, with the policy's expiry forced to TTL indexes whatever the engine. */
function forcedTtl(base: Database): Database {
  return new Proxy(base, {
    get: (target, property, receiver) =>
      property === 'policy'
        ? { ...target.policy, expiry: 'ttl' }
        : (Reflect.get(target, property, receiver) as unknown),
  });
}

async function ledgerTtlSeconds(): Promise<number | undefined> {
  const indexes = await database.db.collection(REQUESTS_COLLECTION).indexes();
  return indexes.find((index) => index.name === TTL_INDEX)?.expireAfterSeconds;
}

it('creates the ledger TTL index of the window where the engine has TTL indexes, else falls back to the sweep', async () => {
  const mode = await new RequestLedger(forcedTtl(database), { windowMs: 2 * HOUR }).ensureIndexes();
  const expected = database.engine.supportsTtlIndexes
    ? { mode: 'ttl', expireAfterSeconds: 7_200 }
    : { mode: 'sweep', expireAfterSeconds: undefined };
  expect({ mode, expireAfterSeconds: await ledgerTtlSeconds() }).toEqual(expected);
});

it('adjusts the TTL index to a changed window on MongoDB; FerretDB refuses TTL indexes with NotImplemented', async () => {
  if (database.engine.supportsTtlIndexes) {
    // The index exists (previous test) with 7,200 s: createIndex conflicts (code 85) and collMod adjusts it.
    const mode = await new RequestLedger(forcedTtl(database), { windowMs: 3 * HOUR }).ensureIndexes();
    expect({ mode, expireAfterSeconds: await ledgerTtlSeconds() }).toEqual({ mode: 'ttl', expireAfterSeconds: 10_800 });
  } else {
    const refused = await database.db
      .collection(REQUESTS_COLLECTION)
      .createIndex({ createdAt: 1 }, { name: TTL_INDEX, expireAfterSeconds: 10_800 })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(MongoServerError);
    expect((refused as MongoServerError).code).toBe(238);
  }
});
