/**
 * The page rollup (issue 27): every hit also counts under its page, `p.<page key>`, in its site's day and month
 * documents of `stats.rollups` (pageRollups), so `topPages` reads one small document per month or day instead of
 * every page's documents. (Versions before that collection wrote the same field into the site-day documents.)
 *
 * The rollup checks itself instead of being trusted: a period's counts are used only when they add up to the
 * document's total `t`, which the same update increments. A page left out by the cap below, or a page deleted from
 * the counters, fails that check, and that period is ranked from the pages' own documents as before. So a rollup can
 * make a ranking faster, never different.
 *
 * Cap: a document admits at most `maxPages` distinct pages (and `maxKeyBytes` of their keys) from this process; the
 * hits of a further page are not rolled up (the day then fails the check). Admission is decided in memory, never by
 * reading the document, as for dimension values (DimensionCounting): at most `maxTrackedKeys` admitted keys are
 * remembered over all documents, the least recently written forgotten first, and a forgotten document written again
 * may admit up to `maxPages` more.
 */
import { dimensionKey } from '../domain/dimensions/dimensionKey';

export interface PageRollupOptions {
  /** TOP_PAGES_ROLLUP_PAGES: distinct pages one rollup document admits. */
  readonly maxPages: number;
  /** Bytes of page keys one document admits (pages may be 2,048 characters long). */
  readonly maxKeyBytes?: number | undefined;
  readonly maxTrackedKeys?: number | undefined;
}

const DEFAULT_MAX_KEY_BYTES = 256 * 1024;
const DEFAULT_MAX_TRACKED_KEYS = 200_000;
/** Page → field path, for the pages written most recently (a full cache starts afresh). */
const MAX_CACHED_PATHS = 20_000;

export const PAGE_ROLLUP_FIELD = 'p';

interface Admitted {
  readonly keys: Set<string>;
  bytes: number;
}

export class PageRollup {
  private readonly maxPages: number;
  private readonly maxKeyBytes: number;
  private readonly maxTrackedKeys: number;
  /** Admission per document id, least recently written first. */
  private readonly documents = new Map<string, Admitted>();
  private trackedKeys = 0;
  private readonly paths = new Map<string, string>();

  constructor(options: PageRollupOptions) {
    this.maxPages = options.maxPages;
    this.maxKeyBytes = options.maxKeyBytes ?? DEFAULT_MAX_KEY_BYTES;
    this.maxTrackedKeys = options.maxTrackedKeys ?? DEFAULT_MAX_TRACKED_KEYS;
  }

  /** The field path counting `page` in a rollup document, or undefined when that document admits no more pages. */
  pathFor(documentId: string, page: string): string | undefined {
    const path = this.pathOf(page);
    let admitted = this.documents.get(documentId);
    if (admitted === undefined) {
      admitted = { keys: new Set(), bytes: 0 };
    } else {
      // Re-inserted last: the map's order is the order of last writes.
      this.documents.delete(documentId);
    }
    this.documents.set(documentId, admitted);
    if (admitted.keys.has(path)) return path;
    if (admitted.keys.size >= this.maxPages || admitted.bytes + path.length > this.maxKeyBytes) return undefined;
    admitted.keys.add(path);
    admitted.bytes += path.length;
    this.trackedKeys += 1;
    this.forgetOldest(documentId);
    return path;
  }

  private pathOf(page: string): string {
    let path = this.paths.get(page);
    if (path === undefined) {
      if (this.paths.size >= MAX_CACHED_PATHS) this.paths.clear();
      path = pageRollupPath(page);
      this.paths.set(page, path);
    }
    return path;
  }

  private forgetOldest(keep: string): void {
    for (const [id, admitted] of this.documents) {
      if (this.trackedKeys <= this.maxTrackedKeys || id === keep) return;
      this.documents.delete(id);
      this.trackedKeys -= admitted.keys.size;
    }
  }
}

/** The field counting `page` in a rollup document. */
export function pageRollupPath(page: string): string {
  return `${PAGE_ROLLUP_FIELD}.${dimensionKey(page)}`;
}

/**
 * A rollup's pages with their hits, when they add up to its `total` (`t`, or a site-day document's `daily`); undefined
 * when they do not (the period is then ranked from the pages' own documents).
 */
export function completeRollup(
  daily: unknown,
  rollup: Record<string, unknown> | undefined,
  valueOf: (key: string) => string,
): Map<string, number> | undefined {
  const total = typeof daily === 'number' ? daily : 0;
  const pages = new Map<string, number>();
  let sum = 0;
  for (const [key, hits] of Object.entries(rollup ?? {})) {
    if (typeof hits !== 'number' || hits === 0) continue;
    sum += hits;
    pages.set(valueOf(key), hits);
  }
  return sum === total ? pages : undefined;
}

/** completeRollup, with a key this version cannot read back counting as incomplete (that period is read as before). */
export function readableRollup(
  total: unknown,
  rollup: Record<string, unknown> | undefined,
  valueOf: (key: string) => string,
): Map<string, number> | undefined {
  try {
    return completeRollup(total, rollup, valueOf);
  } catch {
    return undefined;
  }
}
