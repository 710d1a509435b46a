/**
 * Input that fails validation, for reads and writes alike: a hit, an impression, a site or page of a query. It
 * carries a reason from the closed RejectReason list and the field it is about; nothing of its request is written.
 */
import { BadUserInputError } from '../errors/BadUserInputError';
import type { RejectReason } from './RejectReason';

/** A field name, or a function building it: batches build the names of refused values only. */
export type FieldName = string | (() => string);

export class InputRejectedError extends BadUserInputError {
  constructor(
    readonly reason: RejectReason,
    message: string,
    field?: string,
  ) {
    super(message, field);
    this.name = 'InputRejectedError';
  }
}

/** `<field> <rest>`, with the field's name built only now that a value is refused. */
export function rejection(reason: RejectReason, field: FieldName, rest: string): InputRejectedError {
  const name = typeof field === 'string' ? field : field();
  return new InputRejectedError(reason, `${name} ${rest}`, name);
}
