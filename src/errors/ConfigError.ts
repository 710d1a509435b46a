/** Raised at start-up when an environment variable is invalid; names the variable so the fix is obvious. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    expected: string,
    received: string,
  ) {
    super(`${variable} must be ${expected}, got ${JSON.stringify(received)}`);
    this.name = 'ConfigError';
  }
}
