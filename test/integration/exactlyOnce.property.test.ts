/**
 * Property (issue 9): over random interleavings of keyed submissions, in-process and cross-process duplicates,
 * write commands failing before or after being applied, lease expiry and retries, the stored counters equal the
 * hits of the distinct keys counted once — in every collection and at every granularity, site totals and dimension
 * counters included — and the visitor sketches hold their visitors, once every key has been retried to success. The production pipeline at the production defaults, in each setup
 * of exactlyOnceStack's SETUPS.
 */
import fc from 'fast-check';
import type { Binary } from 'mongodb';
import type { Hit, HitInputFields } from '../../src/domain/Hit';
import { visitorHash } from '../../src/domain/visitors/visitorHash';
import { VISITOR_SECRET_COLLECTION } from '../../src/store/visitorSecret';
import type { TestDatabase } from '../support/testDatabase';
import { connectSetupDatabase, exactlyOnceStack, LEASE_MS, SETUPS } from '../support/exactlyOnceStack';
import type { Stack } from '../support/exactlyOnceStack';
import {
  collectionTotals,
  expectedCounters,
  expectedSketches,
  storedCounters,
  storedSketches,
} from '../support/storedCounters';
import { assertProperty } from '../support/assertProperty';

const NOW = Date.parse('2026-03-10T12:30:00Z');
const KEYS = 4;
let run = 0;

type Command =
  | { readonly type: 'submit'; readonly key: number; readonly to: 0 | 1 | 'both'; readonly copies: number }
  | { readonly type: 'fault'; readonly stack: 0 | 1; readonly n: number; readonly mode: 'before' | 'after' }
  | { readonly type: 'expireLeases' };

const payloadArb = fc.array(
  fc.record({
    page: fc.constantFrom('/a', '/b', '/c'),
    // Within the last two hours (and so inside the second-level retention window): explicit, so stamping is moot.
    offset: fc.integer({ min: 0, max: 2 * 3_600_000 }),
    count: fc.integer({ min: 1, max: 5 }),
    visitor: fc.constantFrom('u1', 'u2', 'u3', undefined),
  }),
  { minLength: 1, maxLength: 4 },
);

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('submit' as const),
      key: fc.integer({ min: 0, max: KEYS - 1 }),
      to: fc.constantFrom(0 as const, 1 as const, 'both' as const),
      copies: fc.integer({ min: 1, max: 2 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('fault' as const),
      stack: fc.constantFrom(0 as const, 1 as const),
      n: fc.integer({ min: 1, max: 4 }),
      mode: fc.constantFrom('before' as const, 'after' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('expireLeases' as const) }) },
);

describe.each(SETUPS)('with %s', (setup) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await connectSetupDatabase(`exactlyOnceProperty_${setup}`, setup);
  });

  afterAll(async () => {
    await database.dropAndClose();
  });

  it('stores every keyed request exactly once whatever fails and whatever is retried', async () => {
    await assertProperty(
      'keyed requests stored exactly once',
      fc.asyncProperty(
        fc.array(payloadArb, { minLength: KEYS, maxLength: KEYS }),
        fc.array(commandArb, { minLength: 1, maxLength: 12 }),
        async (payloads, commands) => {
          const site = `run${run++}`;
          const inputs: HitInputFields[][] = payloads.map((p) =>
            p.map((h) => ({ site, page: h.page, at: new Date(NOW - h.offset), count: h.count, visitor: h.visitor })),
          );
          const clock = { now: NOW };
          const stacks: [Stack, Stack] = [
            await exactlyOnceStack(database, clock),
            await exactlyOnceStack(database, clock),
          ];
          const send = (stack: Stack, key: number) =>
            stack.ingest.recordHits(inputs[key] as HitInputFields[], { idempotencyKey: `${site}-${key}` });
          const submitted = new Set<number>();

          for (const command of commands) {
            if (command.type === 'fault') stacks[command.stack].faults.failNth(command.n, command.mode);
            else if (command.type === 'expireLeases') clock.now += LEASE_MS + 1;
            else {
              submitted.add(command.key);
              const targets = command.to === 'both' ? stacks : [stacks[command.to]];
              const sends = targets.flatMap((s) => Array.from({ length: command.copies }, () => send(s, command.key)));
              // Failures are expected here (injected faults, keys in progress): the retries below must repair them.
              await Promise.allSettled(sends);
            }
          }

          for (const stack of stacks) stack.faults.clear();
          for (const key of submitted) {
            clock.now += LEASE_MS + 1;
            const total = inputs[key]?.reduce((sum, h) => sum + (h.count ?? 1), 0);
            await expect(send(stacks[key % 2] as Stack, key)).resolves.toEqual({
              accepted: inputs[key]?.length,
              total,
            });
          }

          const secret = await database.db.collection(VISITOR_SECRET_COLLECTION).findOne({});
          const key = new Uint8Array((secret?.key as Binary).value());
          const hits: Hit[] = [...submitted].flatMap((submittedKey) =>
            (inputs[submittedKey] as HitInputFields[]).map((h) => ({
              site,
              page: h.page,
              at: (h.at as Date).getTime(),
              count: h.count ?? 1,
              visitor: h.visitor == null ? undefined : visitorHash(key, h.visitor),
            })),
          );
          const stored = await storedCounters(database.db, site);
          expect(stored).toEqual(expectedCounters(hits, { siteTotals: true }));
          expect(await storedSketches(database.db, site)).toEqual(expectedSketches(hits, { siteTotals: true }));
          const total = hits.reduce((sum, h) => sum + h.count, 0);
          expect(collectionTotals(stored)).toEqual({ daily: total, monthly: total, seconds: total });
        },
      ),
      { numRuns: 25 },
    );
  });
});
