/** A known key that lacks the scope or site an operation needs; the message names which, never the key. */
import { AppError } from './AppError';

export class ForbiddenError extends AppError {
  readonly code = 'FORBIDDEN' as const;
  override readonly httpStatus = 403;

  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenError';
  }
}
