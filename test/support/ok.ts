/** A loaded result that must be there: throws the Error a loader returned in its place, or when nothing came back. */
export function ok<T>(result: T | Error | undefined): T {
  if (result === undefined || result instanceof Error) throw result ?? new Error('nothing read');
  return result;
}
