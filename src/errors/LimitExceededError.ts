/**
 * A request over one of the configured limits. `limit` is the environment variable that sets it, so the
 * client (and the operator) can tell which limit and by how much: `value` received, `max` allowed.
 */
import { AppError } from './AppError';

export class LimitExceededError extends AppError {
  readonly code = 'LIMIT_EXCEEDED' as const;

  constructor(
    readonly limit: string,
    readonly max: number,
    /** What the request had; undefined when counting stopped at the limit (tokens). */
    readonly value: number | undefined,
    what: string,
    override readonly httpStatus = 400,
  ) {
    super(
      value === undefined
        ? `${what} exceeds the limit of ${max} (${limit})`
        : `${what} is ${value}, more than the limit of ${max} (${limit})`,
    );
    this.name = 'LimitExceededError';
  }
}
