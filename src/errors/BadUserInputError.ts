/** The client sent something we cannot accept; the message says what was expected and what came. */
import { AppError } from './AppError';

export class BadUserInputError extends AppError {
  readonly code = 'BAD_USER_INPUT' as const;

  constructor(
    message: string,
    /** The argument path the problem is in, e.g. `hits[3].page`; messages start with it. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'BadUserInputError';
  }
}
