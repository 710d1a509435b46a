/**
 * The one way a test polls: reads a value until it satisfies a condition or a deadline passes. A stall fails
 * with what was awaited and the last value read, never as a bare jest timeout.
 */

export interface WaitForOptions<T> {
  /** What is awaited, for the failure message: "200 acknowledged hits". */
  readonly what: string;
  /** Keep it below the test's own timeout, so this message wins over jest's. */
  readonly timeoutMs: number;
  /** Defaults to truthiness of the value read. */
  readonly until?: (value: T) => boolean;
  readonly intervalMs?: number;
}

const NOTHING_READ = Symbol('nothing read');

/**
 * Resolves with the first value of `read` that satisfies `until`. A read still pending at the deadline fails the
 * wait too; an error thrown by `read` fails it at once.
 */
export async function waitFor<T>(read: () => T | Promise<T>, options: WaitForOptions<T>): Promise<T> {
  const { what, timeoutMs, intervalMs = 50 } = options;
  const until = options.until ?? ((value: T) => Boolean(value));
  const deadline = Date.now() + timeoutMs;
  let last: T | typeof NOTHING_READ = NOTHING_READ;
  for (;;) {
    const outcome = await beforeDeadline(Promise.resolve().then(read), deadline);
    if (outcome === TIMED_OUT) break;
    last = outcome.value;
    if (until(outcome.value)) return outcome.value;
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, remaining)));
  }
  const seen = last === NOTHING_READ ? 'none (the first read did not answer)' : show(last);
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${seen}`);
}

const TIMED_OUT = Symbol('timed out');

async function beforeDeadline<T>(pending: Promise<T>, deadline: number): Promise<{ value: T } | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([pending.then((value) => ({ value })), late]);
  } finally {
    clearTimeout(timer);
  }
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
