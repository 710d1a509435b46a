/** tally will not start, for a reason one line explains (the data's engine is not the one asked for, or is gone). */
export class StartRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefusedError';
  }
}
