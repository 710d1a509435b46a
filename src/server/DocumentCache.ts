/**
 * Apollo Server's `documentStore`: parsed and validated GraphQL documents by query hash, bounded by the heap they
 * really hold (issue 21). Apollo's default weighs a document by its JSON, but a parsed document with its tokens
 * and locations holds about 4× that (measured: bench/probes/soakDocumentCost.ts, 263–288 heap bytes per token
 * against 3.9–4.5× the JSON), so a "30 MiB" default held about 130 MB. Here a document weighs HEAP_BYTES_PER_TOKEN
 * per token plus its source text, and the entries together stay under `maxBytes`, least recently used out first.
 *
 * A document is kept from its second use on: one seen once is only remembered by key (at most MAX_SEEN_ONCE keys),
 * so one-off documents — dashboards that inline their timestamps, which change every request — never evict the
 * ones that repeat, and cost no more than they would without a cache.
 */
import type { DocumentNode, Token } from 'graphql';

/** Retained heap per token of a parsed document, rounded up from the largest measured (288 bytes). */
export const HEAP_BYTES_PER_TOKEN = 300;
/** Without locations (no token list), a document is weighed by its JSON times this (largest measured: 4.45). */
const HEAP_PER_JSON_BYTE = 4.5;
/** Keys of documents seen once, remembered at most (about 150 bytes each); forgotten all at once when full. */
export const MAX_SEEN_ONCE = 10_000;

interface Entry {
  readonly document: DocumentNode;
  readonly bytes: number;
}

/** The heap a parsed document holds, estimated from its tokens (or its JSON without them). */
export function documentHeapBytes(document: DocumentNode): number {
  const loc = document.loc;
  if (!loc) return Math.ceil(Buffer.byteLength(JSON.stringify(document)) * HEAP_PER_JSON_BYTE);
  let tokens = 0;
  for (let token: Token | null = loc.startToken; token; token = token.next) tokens += 1;
  return tokens * HEAP_BYTES_PER_TOKEN + loc.source.body.length;
}

/** Apollo's KeyValueCache<DocumentNode>, structurally. */
export class DocumentCache {
  private readonly entries = new Map<string, Entry>();
  private readonly seenOnce = new Set<string>();
  private held = 0;

  constructor(
    /** Heap the cached documents may hold together. */
    readonly maxBytes: number,
    /** Told the bytes held after every change (the metrics). */
    private readonly onChange?: (bytes: number, documents: number) => void,
  ) {}

  /** Estimated heap held by the cached documents. */
  get bytes(): number {
    return this.held;
  }

  get documents(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<DocumentNode | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Most recently used last: a Map iterates in insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.document;
  }

  async set(key: string, document: DocumentNode): Promise<void> {
    if (!this.seenOnce.delete(key) && !this.entries.has(key)) {
      if (this.seenOnce.size >= MAX_SEEN_ONCE) this.seenOnce.clear();
      this.seenOnce.add(key);
      return;
    }
    const bytes = documentHeapBytes(document);
    this.remove(key);
    if (bytes > this.maxBytes) return;
    for (const [oldest] of this.entries) {
      if (this.held + bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
    this.entries.set(key, { document, bytes });
    this.held += bytes;
    this.onChange?.(this.held, this.entries.size);
  }

  async delete(key: string): Promise<boolean> {
    const removed = this.remove(key);
    this.onChange?.(this.held, this.entries.size);
    return removed;
  }

  private remove(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.held -= entry.bytes;
    return true;
  }
}
