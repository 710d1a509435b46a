/** A retry arrived while the first attempt with its key may still be writing (issue 9); retrying later is safe. */
import { AppError } from './AppError';

export class IdempotencyKeyInProgressError extends AppError {
  readonly code = 'IDEMPOTENCY_KEY_IN_PROGRESS' as const;

  constructor(retryAfterMs: number) {
    super(
      `a request with this idempotency key is still in progress; retry in about ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s (it will not be counted twice)`,
    );
    this.name = 'IdempotencyKeyInProgressError';
  }
}
