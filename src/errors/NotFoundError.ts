/** No route for the request's method and path; the message names them so a typo is obvious. */
import { AppError } from './AppError';

export class NotFoundError extends AppError {
  readonly code = 'NOT_FOUND' as const;
  override readonly httpStatus = 404;

  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}
