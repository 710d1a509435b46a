/**
 * Draws the table of charted series under the chart: the whole site, the charted dimension value, each page, with
 * hits over the chart's buckets and distinct visitors. Visitors counted over another span than the hits are
 * marked "*" and the cell's title names the span.
 */
import { MISSING, formatCount } from './formatNumbers';
import { formatSpan } from './formatSpan';
import { VISITORS_COLOR } from './viewSeries';
import type { ViewSeries } from './viewSeries';

function swatch(color: string): HTMLSpanElement {
  const element = document.createElement('span');
  element.className = 'swatch';
  element.style.background = color;
  return element;
}

function row(series: ViewSeries): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.className = series.kind;
  if (series.failed) tr.classList.add('failed');
  const name = document.createElement('td');
  name.append(swatch(series.color), series.label);
  // Long pages are cut to the column's width: the whole label shows on hover.
  name.title = series.label;
  const hits = document.createElement('td');
  hits.className = 'total';
  const dropped = series.hits.some((h) => h === null);
  hits.textContent =
    series.failed || dropped ? MISSING : formatCount(series.hits.reduce<number>((a, b) => a + (b ?? 0), 0));
  if (series.failed) hits.title = 'this series failed: see the status line';
  else if (dropped) hits.title = 'not known: the range reaches detail the server no longer keeps (retention)';
  const visitors = document.createElement('td');
  visitors.className = 'visitors';
  if (series.kind === 'site' && series.visitors !== null) visitors.append(swatch(VISITORS_COLOR));
  visitors.append(formatCount(series.visitors));
  if (series.visitorsSpan) {
    visitors.append('*');
    visitors.title = `visitors counted over ${formatSpan(series.visitorsSpan.from, series.visitorsSpan.to)}`;
  } else if (series.visitors === null) {
    visitors.title =
      series.kind === 'filtered'
        ? 'visitors per value are kept for the dimensions in DIMENSION_VISITORS only'
        : 'visitors are not known for this series';
  }
  tr.append(name, hits, visitors);
  return tr;
}

export function renderSeriesTable(body: HTMLElement, series: readonly ViewSeries[]): void {
  body.replaceChildren(...series.map(row));
}
