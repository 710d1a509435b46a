/** What topPages ranks pages by (issue 29): their hits, or the visits that entered or left on them. */
export enum TopPagesOrder {
  HITS = 'HITS',
  ENTRIES = 'ENTRIES',
  EXITS = 'EXITS',
}
