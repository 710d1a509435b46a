/** The reason, message and field of the InputRejectedError `run` throws (fails the test when it throws none). */
import { InputRejectedError } from '../../../../src/domain/InputRejectedError';
import type { RejectReason } from '../../../../src/domain/RejectReason';

export function rejectionOf(run: () => unknown): { reason: RejectReason; message: string; field: string | undefined } {
  try {
    run();
  } catch (error) {
    if (error instanceof InputRejectedError) {
      return { reason: error.reason, message: error.message, field: error.field };
    }
    throw error;
  }
  throw new Error('expected an InputRejectedError, got none');
}
