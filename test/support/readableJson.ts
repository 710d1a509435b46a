/**
 * Documents as JSON with every binary replaced by what it holds (visit session states are binaries: visitStateBytes'
 * layout, or BSON from earlier versions), so a privacy test searches the stored values themselves, not their base64.
 */
import { Binary, BSON } from 'mongodb';
import { decodeVisitState } from '../../src/domain/visits/visitStateBytes';

function expand(value: unknown): unknown {
  if (value instanceof Binary) {
    if (value.sub_type === Binary.SUBTYPE_USER_DEFINED) return expand(decodeVisitState(value.value()));
    return expand(BSON.deserialize(value.value()));
  }
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map(expand);
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, expand(inner)]));
}

export function readableJson(documents: readonly unknown[]): string {
  return JSON.stringify(documents.map(expand));
}
