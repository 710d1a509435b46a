/**
 * A request over one of the configured limits. `limit` is the environment variable that sets it, so the
 * client (and the operator) can tell which limit and by how much: `value` received, `max` allowed. Every limit
 * answers this way, whether one argument or the sum over a request is over it (issue 31); one argument's also
 * says which (`field`) and, for hit and impression batches, the reject reason ingest counts it under.
 */
import { AppError } from './AppError';

export interface LimitDetails {
  /** The argument over the limit (`hits`, `range`), when one is. */
  readonly field?: string;
  /** A RejectReason (BATCH_TOO_LARGE), for input that ingest counts by reason. */
  readonly reason?: string;
  /** What to do instead, appended to the message. */
  readonly hint?: string;
}

export class LimitExceededError extends AppError {
  readonly code = 'LIMIT_EXCEEDED' as const;
  readonly field: string | undefined;
  readonly reason: string | undefined;

  constructor(
    readonly limit: string,
    readonly max: number,
    /** What the request had; undefined when counting stopped at the limit (tokens). */
    readonly value: number | undefined,
    what: string,
    override readonly httpStatus = 400,
    details: LimitDetails = {},
  ) {
    const over =
      value === undefined
        ? `${what} exceeds the limit of ${max} (${limit})`
        : `${what} is ${value}, more than the limit of ${max} (${limit})`;
    super(details.hint === undefined ? over : `${over}; ${details.hint}`);
    this.name = 'LimitExceededError';
    this.field = details.field;
    this.reason = details.reason;
  }
}
