/**
 * Documents as JSON with every BSON binary replaced by what it holds (visit session states are BSON in binaries), so
 * a privacy test searches the stored values themselves, not their base64.
 */
import { Binary, BSON } from 'mongodb';

function expand(value: unknown): unknown {
  if (value instanceof Binary) return expand(BSON.deserialize(value.value()));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map(expand);
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, expand(inner)]));
}

export function readableJson(documents: readonly unknown[]): string {
  return JSON.stringify(documents.map(expand));
}
