/**
 * Draws the Goals panel — a form to add a goal, and per goal its visitors, events, conversion rate and revenue, a
 * button that selects (charts) it and one that removes it — and the properties panel of the selected event goal:
 * the key typed by the person (the API lists no keys per event; the site's own code knows which it sends) and that
 * key's values ranked by count.
 */
import { formatCount } from './formatNumbers';
import type { DashboardViewQuery } from './generated/graphql';
import { formatRate, formatRevenue, goalLabel, goalText, sameGoal } from './goals';
import type { Goal } from './goals';
import { OTHER } from './panels';
import { tableCell as cell } from './tableCell';

export type ConversionsResult = NonNullable<DashboardViewQuery['conversions']>;
export type PropertiesResult = NonNullable<DashboardViewQuery['properties']>;

export interface GoalsAnswer {
  readonly goals: readonly Goal[];
  /** Null when the field failed (with `error`), in the goals' order otherwise. */
  readonly conversions: ConversionsResult | null | undefined;
  readonly error?: string | undefined;
  readonly selected?: Goal | undefined;
}

export interface GoalActions {
  readonly add: (text: string) => void;
  readonly remove: (goal: Goal) => void;
  /** Selects the goal, or clears the selection when it is the selected one. */
  readonly select: (goal: Goal) => void;
}

function heading(text: string, note?: string): HTMLHeadingElement {
  const h2 = document.createElement('h2');
  h2.textContent = text;
  if (note) {
    const span = document.createElement('span');
    span.className = 'note';
    span.textContent = ` · ${note}`;
    h2.append(span);
  }
  return h2;
}

/** A one-field form: submitting it hands the text over and empties the field. */
function entryForm(
  className: string,
  name: string,
  options: { label: string; placeholder: string; value?: string; button: string; keep?: boolean },
  onSubmit: (text: string) => void,
): HTMLFormElement {
  const form = document.createElement('form');
  form.className = `entry ${className}`;
  const input = document.createElement('input');
  input.name = name;
  input.placeholder = options.placeholder;
  input.setAttribute('aria-label', options.label);
  input.value = options.value ?? '';
  const button = document.createElement('button');
  button.type = 'submit';
  button.textContent = options.button;
  form.append(input, button);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onSubmit(input.value.trim());
    if (!options.keep) input.value = '';
  });
  return form;
}

function headRow(table: HTMLTableElement, columns: readonly (readonly [string, string])[]): void {
  const head = table.createTHead().insertRow();
  for (const [text, title] of columns) {
    const th = document.createElement('th');
    th.textContent = text;
    if (title) th.title = title;
    head.append(th);
  }
}

export function renderGoals(section: HTMLElement, answer: GoalsAnswer, actions: GoalActions): void {
  const add = entryForm(
    'add-goal',
    'goal',
    { label: 'Goal', placeholder: 'Signup, /pricing or /blog/**', button: 'Add' },
    (text) => {
      if (text !== '') actions.add(text);
    },
  );
  section.replaceChildren(heading('Goals'), add);
  if (answer.goals.length === 0) {
    const empty = document.createElement('p');
    empty.className = 'empty';
    empty.textContent =
      'Add an event name (Signup) or a page: exact (/pricing), one segment (/blog/*) or any suffix (/docs/**).';
    section.append(empty);
    return;
  }
  if (answer.conversions === null || answer.error) {
    const error = document.createElement('p');
    error.className = 'error';
    error.textContent = answer.error ?? 'Not loaded';
    section.append(error);
  }
  const table = document.createElement('table');
  headRow(table, [
    ['Goal', ''],
    ['Visitors', 'Distinct visitors who reached the goal (estimated from sketches)'],
    ['Events', 'How many times the goal was reached: the event’s occurrences, or the matching pages’ hits'],
    ['Conversion rate', 'The goal’s visitors over the site’s visitors of the same days'],
    ['Revenue', 'Exact sums per currency, sent with the event'],
    ['', ''],
  ]);
  const body = table.createTBody();
  answer.goals.forEach((goal, i) => {
    const conversion = answer.conversions?.[i];
    const tr = body.insertRow();
    tr.dataset.goal = goalText(goal);
    const name = cell('value', '');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = goalLabel(goal);
    const selected = sameGoal(goal, answer.selected);
    button.title = selected ? 'Stop charting this goal' : `Chart ${goalLabel(goal)}`;
    button.setAttribute('aria-pressed', String(selected));
    if (selected) tr.classList.add('selected');
    button.addEventListener('click', () => actions.select(goal));
    name.append(button);
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'remove';
    remove.textContent = '×';
    remove.title = `Remove ${goalLabel(goal)}`;
    remove.addEventListener('click', () => actions.remove(goal));
    const removeCell = cell('actions', '');
    removeCell.append(remove);
    tr.append(
      name,
      cell('visitors', formatCount(conversion?.visitors)),
      cell('events', formatCount(conversion?.events)),
      cell('rate', formatRate(conversion?.conversionRate)),
      cell('revenue', conversion ? formatRevenue(conversion.revenue) : '—'),
      removeCell,
    );
  });
  section.append(table);
}

export interface PropertiesAnswer {
  readonly event: string;
  readonly key: string;
  /** Undefined: no key typed yet; null: the field failed (with `error`). */
  readonly result: PropertiesResult | null | undefined;
  readonly error?: string | undefined;
}

export function renderProperties(
  section: HTMLElement,
  answer: PropertiesAnswer | undefined,
  setKey: (key: string) => void,
): void {
  section.hidden = answer === undefined;
  if (!answer) {
    section.replaceChildren();
    return;
  }
  const form = entryForm(
    'property-key',
    'key',
    {
      label: 'Property key',
      placeholder: 'a key the event sends, e.g. plan',
      value: answer.key,
      button: 'Show',
      keep: true,
    },
    setKey,
  );
  section.replaceChildren(heading('Properties', answer.event), form);
  const message = (className: string, text: string): void => {
    const p = document.createElement('p');
    p.className = className;
    p.textContent = text;
    section.append(p);
  };
  if (answer.key === '') return message('empty', `Type a property key ${answer.event} is sent with.`);
  if (!answer.result) return message('error', answer.error ?? 'Not loaded');
  const rows = answer.result.edges.map(({ node }) => ({ value: node.value, hits: node.hits, other: false }));
  if (answer.result.other > 0) rows.push({ value: OTHER, hits: answer.result.other, other: true });
  if (rows.length === 0) return message('empty', `No ${answer.event} with “${answer.key}” on these days.`);
  const table = document.createElement('table');
  headRow(table, [
    [answer.key, ''],
    ['Events', `Occurrences of ${answer.event} with each value of ${answer.key}`],
  ]);
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    tr.dataset.value = row.value;
    if (row.other) tr.classList.add('other');
    tr.append(cell('value', row.value), cell('hits', formatCount(row.hits)));
  }
  section.append(table);
  const more = answer.result.totalCount - answer.result.edges.length;
  if (more > 0) message('more', `and ${formatCount(more)} more`);
}
