/**
 * Draws the breakdown panels: per dimension its top values with hits, visitors, visits and bounce rate ("—" where the
 * API keeps none: visitors outside DIMENSION_VISITORS, visits of the "(other)" remainder and of a goal's conversions),
 * the "(other)" remainder, "and N more", and the whole UTC days they count. With a goal selected they count its
 * conversions instead: the event's occurrences from each value, or the hits of the goal's page. A value is a button:
 * clicking it charts that value's series (onPick).
 */
import type { DimensionFilter } from './dimensionFilter';
import { MISSING, formatCount, formatPercent } from './formatNumbers';
import { formatSpan } from './formatSpan';
import { PANELS, panelContent } from './panels';
import type { BreakdownResult, DimensionName, PanelSpec } from './panels';
import { tableCell as cell } from './tableCell';

export interface PanelAnswers {
  /** Each panel's breakdown, null when it failed. */
  readonly results: Readonly<Record<string, BreakdownResult | null | undefined>>;
  /** Each failed panel's error text. */
  readonly errors: Readonly<Record<string, string>>;
  /** What the panels count when not hits: the selected goal's conversions. */
  readonly goal?: { readonly kind: 'event' | 'page'; readonly label: string } | undefined;
}

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region' });

function countryName(code: string): string | undefined {
  if (!/^[A-Z]{2}$/.test(code)) return undefined;
  try {
    const name = REGIONS.of(code);
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}

const VISITS_TITLE = 'Visits whose first hit had this value (site totals; "—" while a goal is selected)';
const BOUNCE_TITLE = 'Of those visits, the share of one pageview and no event';

function panel(
  spec: PanelSpec,
  answers: PanelAnswers,
  filter: DimensionFilter | undefined,
  onPick: (dimension: DimensionName, value: string) => void,
): HTMLElement {
  const section = document.createElement('section');
  section.className = 'panel';
  section.id = `panel-${spec.alias}`;
  section.dataset.dimension = spec.dimension;
  const heading = document.createElement('h2');
  heading.textContent = spec.title;
  if (answers.goal) {
    const goal = document.createElement('span');
    goal.className = 'note';
    goal.textContent = ` · ${answers.goal.label}`;
    heading.append(goal);
  }
  section.append(heading);
  const result = answers.results[spec.alias];
  if (!result) {
    const error = document.createElement('p');
    error.className = 'error';
    error.textContent = answers.errors[spec.alias] ?? 'Not loaded';
    section.append(error);
    return section;
  }
  const content = panelContent(result);
  if (content.rows.length === 0) {
    const empty = document.createElement('p');
    empty.className = 'empty';
    empty.textContent = answers.goal ? 'No conversions on these days.' : 'No hits on these days.';
    section.append(empty);
    return section;
  }
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const [text, title] of [
    ['', ''],
    answers.goal?.kind === 'event'
      ? (['Events', `Occurrences of ${answers.goal.label} from each value`] as const)
      : answers.goal
        ? (['Hits', `Hits on ${answers.goal.label.replace(/^Visit /, '')} from each value`] as const)
        : (['Hits', ''] as const),
    ['Visitors', 'Distinct visitors per value: kept for the dimensions in DIMENSION_VISITORS, "—" elsewhere'],
    ['Visits', VISITS_TITLE],
    ['Bounce', BOUNCE_TITLE],
  ] as const) {
    const th = document.createElement('th');
    th.textContent = text;
    if (title) th.title = title;
    head.append(th);
  }
  const body = table.createTBody();
  for (const row of content.rows) {
    const tr = body.insertRow();
    tr.dataset.value = row.value;
    const name = cell('value', '');
    if (row.chartable) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = row.value;
      button.title = `Chart ${row.value}`;
      const selected = filter?.dimension === spec.dimension && filter.value === row.value;
      button.setAttribute('aria-pressed', String(selected));
      if (selected) tr.classList.add('selected');
      button.addEventListener('click', () => onPick(spec.dimension, row.value));
      name.append(button);
    } else {
      name.append(row.value);
      tr.classList.add('other');
    }
    const note = row.note ?? (spec.dimension === 'COUNTRY' ? countryName(row.value) : undefined);
    if (note) {
      const small = document.createElement('span');
      small.className = 'note';
      small.textContent = note;
      name.append(' ', small);
    }
    // A goal's conversions are not visits: its values' visit figures would describe other hits than the counts beside.
    tr.append(
      name,
      cell('hits', formatCount(row.hits)),
      cell('visitors', formatCount(row.visitors)),
      cell('visits', answers.goal ? MISSING : formatCount(row.visits)),
      cell('rate', answers.goal ? MISSING : formatPercent(row.bounceRate)),
    );
  }
  section.append(table);
  if (content.more > 0) {
    const more = document.createElement('p');
    more.className = 'more';
    more.textContent = `and ${formatCount(content.more)} more`;
    section.append(more);
  }
  return section;
}

export function renderPanels(
  box: HTMLElement,
  noteBox: HTMLElement,
  answers: PanelAnswers,
  filter: DimensionFilter | undefined,
  onPick: (dimension: DimensionName, value: string) => void,
): void {
  box.replaceChildren(...PANELS.map((spec) => panel(spec, answers, filter, onPick)));
  const counted = PANELS.map((spec) => answers.results[spec.alias]).find((r): r is BreakdownResult => !!r);
  const what = answers.goal ? ` the conversions of ${answers.goal.label} over` : '';
  noteBox.textContent = counted
    ? `Sources, campaigns, countries, browsers, systems and devices count${what} whole UTC days: ${formatSpan(Date.parse(counted.from), Date.parse(counted.to))}.`
    : '';
}
