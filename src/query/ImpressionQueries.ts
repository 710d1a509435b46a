/**
 * The impression read use-cases: validate the arguments, read one page plus one row by keyset, and shape it
 * as a Relay connection. The extra row answers hasNextPage without a count.
 */
import { BadUserInputError } from '../errors/BadUserInputError';
import { parseImpressionId } from '../domain/parseImpression';
import type { ItemCount, PairCount } from '../store/ImpressionStore';
import { decodeItemCursor, decodePairCursor, encodeItemCursor, encodePairCursor } from './impressionCursor';

export interface ImpressionReader {
  userImpressions(userId: string, after: PairCount | undefined, limit: number): Promise<PairCount[]>;
  itemImpressions(itemId: string, after: PairCount | undefined, limit: number): Promise<PairCount[]>;
  topPairs(after: PairCount | undefined, limit: number): Promise<PairCount[]>;
  topItems(after: ItemCount | undefined, limit: number): Promise<ItemCount[]>;
}

export interface ImpressionPageLimits {
  /** Largest `first` accepted. */
  readonly maxPageSize: number;
}

export interface PageArgs {
  readonly first: number;
  readonly after?: string | null | undefined;
}

export interface ImpressionConnection<T> {
  edges: Array<{ cursor: string; node: T }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export class ImpressionQueries {
  constructor(
    private readonly reader: ImpressionReader,
    private readonly limits: ImpressionPageLimits,
  ) {}

  async userImpressions(userId: string, page: PageArgs): Promise<ImpressionConnection<PairCount>> {
    const id = parseImpressionId(userId, 'userId');
    const first = this.parseFirst(page.first);
    const after = page.after == null ? undefined : decodePairCursor(page.after);
    return connection(await this.reader.userImpressions(id, after, first + 1), first, encodePairCursor);
  }

  async itemImpressions(itemId: string, page: PageArgs): Promise<ImpressionConnection<PairCount>> {
    const id = parseImpressionId(itemId, 'itemId');
    const first = this.parseFirst(page.first);
    const after = page.after == null ? undefined : decodePairCursor(page.after);
    return connection(await this.reader.itemImpressions(id, after, first + 1), first, encodePairCursor);
  }

  async topPairs(page: PageArgs): Promise<ImpressionConnection<PairCount>> {
    const first = this.parseFirst(page.first);
    const after = page.after == null ? undefined : decodePairCursor(page.after);
    return connection(await this.reader.topPairs(after, first + 1), first, encodePairCursor);
  }

  async topItems(page: PageArgs): Promise<ImpressionConnection<ItemCount>> {
    const first = this.parseFirst(page.first);
    const after = page.after == null ? undefined : decodeItemCursor(page.after);
    return connection(await this.reader.topItems(after, first + 1), first, encodeItemCursor);
  }

  private parseFirst(first: number): number {
    if (!Number.isSafeInteger(first) || first < 1 || first > this.limits.maxPageSize) {
      throw new BadUserInputError(
        `first must be an integer from 1 to ${this.limits.maxPageSize}, got ${first}`,
        'first',
      );
    }
    return first;
  }
}

/** `rows` holds up to first + 1 rows: the extra one only says that a next page exists. */
export function connection<T>(
  rows: readonly T[],
  first: number,
  cursorOf: (row: T) => string,
): ImpressionConnection<T> {
  const edges = rows.slice(0, first).map((node) => ({ cursor: cursorOf(node), node }));
  return {
    edges,
    pageInfo: { hasNextPage: rows.length > first, endCursor: edges.at(-1)?.cursor ?? null },
  };
}
