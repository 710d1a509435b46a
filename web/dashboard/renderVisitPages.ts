/**
 * Draws the entry and exit pages panels (issue 29): the pages visits began and ended on, most first, with "and N
 * more" and the whole UTC days they count. A visit counts in the hour of its first hit, so a minute range's panels
 * show its whole days' visits, as the API answers them.
 */
import { formatCount } from './formatNumbers';
import { formatSpan } from './formatSpan';
import type { VisitPageRowsFragment } from './generated/graphql';
import { tableCell } from './tableCell';

export interface VisitPagesAnswer {
  /** Null when the field failed (with its error), absent before the first read. */
  readonly entries: VisitPageRowsFragment | null | undefined;
  readonly exits: VisitPageRowsFragment | null | undefined;
  readonly errors: { readonly entries?: string | undefined; readonly exits?: string | undefined };
}

/** Pages per panel. */
export const VISIT_PAGES_SIZE = 10;

const PANELS = [
  { alias: 'entries', title: 'Entry pages', column: 'Entries', what: 'Visits that began on the page' },
  { alias: 'exits', title: 'Exit pages', column: 'Exits', what: 'Visits whose last pageview was on the page' },
] as const;

function panel(spec: (typeof PANELS)[number], answer: VisitPagesAnswer): HTMLElement {
  const section = document.createElement('section');
  section.className = 'panel';
  section.id = `panel-${spec.alias}`;
  const heading = document.createElement('h2');
  heading.textContent = spec.title;
  section.append(heading);
  const result = answer[spec.alias];
  const message = (className: string, text: string): HTMLElement => {
    const p = document.createElement('p');
    p.className = className;
    p.textContent = text;
    section.append(p);
    return section;
  };
  if (!result) return message('error', answer.errors[spec.alias] ?? 'Not loaded');
  if (result.edges.length === 0) return message('empty', 'No visits on these days.');
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const [text, title] of [
    ['Page', ''],
    [spec.column, `${spec.what}, counted in the hour of the visit's first hit`],
  ]) {
    const th = document.createElement('th');
    th.textContent = text;
    if (title) th.title = title;
    head.append(th);
  }
  const body = table.createTBody();
  for (const { node } of result.edges) {
    const tr = body.insertRow();
    tr.dataset.value = node.page;
    tr.append(tableCell('value', node.page), tableCell('hits', formatCount(node.hits)));
  }
  section.append(table);
  const more = result.totalCount - result.edges.length;
  if (more > 0) message('more', `and ${formatCount(more)} more`);
  message('note', `Whole UTC days: ${formatSpan(Date.parse(result.from), Date.parse(result.to))}`);
  return section;
}

export function renderVisitPages(box: HTMLElement, answer: VisitPagesAnswer | undefined): void {
  box.replaceChildren(...(answer ? PANELS.map((spec) => panel(spec, answer)) : []));
}
