/** Sets a dotted path (`minute.10.05`) in a plain document, creating the objects on the way, as `$set` would. */
import type { Document } from 'mongodb';

export function setPath(doc: Document, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = doc;
  for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Document;
  node[parts[parts.length - 1] as string] = value;
}
