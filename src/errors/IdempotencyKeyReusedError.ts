/** An idempotency key came back with a different payload than the request that first used it (issue 9). */
import { AppError } from './AppError';

export class IdempotencyKeyReusedError extends AppError {
  readonly code = 'IDEMPOTENCY_KEY_REUSED' as const;

  constructor(readonly field = 'idempotencyKey') {
    super(
      `${field} was already used for a different request: a retry must repeat the original hits exactly (same site, page, at and count, in the same order); use a new key for new hits`,
    );
    this.name = 'IdempotencyKeyReusedError';
  }
}
