/** An impression (or batch) that fails validation; nothing of its request is written. */
import { BadUserInputError } from '../errors/BadUserInputError';
import type { RejectReason } from './RejectReason';

export class ImpressionRejectedError extends BadUserInputError {
  constructor(
    readonly reason: RejectReason,
    message: string,
    field?: string,
  ) {
    super(message, field);
    this.name = 'ImpressionRejectedError';
  }
}
