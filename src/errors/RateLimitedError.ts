/** Too many requests from one key or address in the current window; `Retry-After` says when to come back. */
import { AppError } from './AppError';

export class RateLimitedError extends AppError {
  readonly code = 'RATE_LIMITED' as const;
  override readonly httpStatus = 429;
  /** Fastify reads the status of a thrown error from here. */
  readonly statusCode = 429;

  constructor(
    readonly limit: string,
    readonly max: number,
    windowMs: number,
    retryAfter: string,
  ) {
    super(`more than ${max} requests in ${windowMs / 1000} s (${limit}); retry in ${retryAfter}`);
    this.name = 'RateLimitedError';
  }
}
