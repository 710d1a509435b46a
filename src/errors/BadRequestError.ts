/** The request itself is malformed or unsupported (wrong transport, bad body): not a field's input. */
import { AppError } from './AppError';

export class BadRequestError extends AppError {
  readonly code = 'BAD_REQUEST' as const;

  constructor(
    message: string,
    override readonly httpStatus = 400,
  ) {
    super(message);
    this.name = 'BadRequestError';
  }
}
