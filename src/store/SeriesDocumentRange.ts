/** The documents one series needs: a (site, page) and the inclusive range of their period starts. */
export interface SeriesDocumentRange {
  readonly site: string;
  readonly page: string;
  /** Epoch ms of the first document's metadata.date. */
  readonly first: number;
  /** Epoch ms of the last document's metadata.date (inclusive). */
  readonly last: number;
}
