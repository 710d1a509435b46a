/**
 * fast-check's assert with a recorded seed, for the database-backed property tests (a handful of cases each, so
 * every run explores other ones): the seed is printed before the run and named in a failure, and
 * TALLY_PROPERTY_SEED=<seed> replays that run.
 */
import fc from 'fast-check';

export const PROPERTY_SEED_VARIABLE = 'TALLY_PROPERTY_SEED';

/** TALLY_PROPERTY_SEED when set, else a new 32-bit seed. */
export function propertySeed(): number {
  const fixed = process.env[PROPERTY_SEED_VARIABLE];
  if (fixed === undefined || fixed === '') return (Math.random() * 0x1_0000_0000) | 0;
  const seed = Number(fixed);
  if (!Number.isSafeInteger(seed)) {
    throw new Error(`${PROPERTY_SEED_VARIABLE} must be an integer, got ${JSON.stringify(fixed)}`);
  }
  return seed;
}

/** `name` says which property the printed seed belongs to. */
export async function assertProperty<Ts>(
  name: string,
  property: fc.IAsyncProperty<Ts>,
  params: fc.Parameters<Ts>,
): Promise<void> {
  const seed = propertySeed();
  process.stdout.write(`property "${name}": seed ${seed} (${PROPERTY_SEED_VARIABLE}=${seed} replays it)\n`);
  try {
    await fc.assert(property, { ...params, seed });
  } catch (error) {
    if (error instanceof Error) error.message = `${PROPERTY_SEED_VARIABLE}=${seed} replays this run.\n${error.message}`;
    throw error;
  }
}
