/** The database cannot be reached or did not acknowledge a write; the client may retry. */
import { AppError } from './AppError';

export class ServiceUnavailableError extends AppError {
  readonly code = 'SERVICE_UNAVAILABLE' as const;
  override readonly httpStatus = 503;

  constructor(message = 'the database is unavailable; retry later') {
    super(message);
    this.name = 'ServiceUnavailableError';
  }
}
