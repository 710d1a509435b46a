/** No API key, or one the server does not know. The message never repeats the key. */
import { AppError } from './AppError';

export class UnauthenticatedError extends AppError {
  readonly code = 'UNAUTHENTICATED' as const;
  override readonly httpStatus = 401;

  constructor(message = 'an API key is required: send "Authorization: Bearer <secret>"') {
    super(message);
    this.name = 'UnauthenticatedError';
  }
}
