/**
 * The goals a person enters in the Goals panel: an event name ("Signup") or a page pattern ("/pricing", "/blog/*",
 * "/docs/**"), kept in the URL (`?goal=Signup&goal=/pricing`, the selected one as `&selected=Signup`). What a
 * selected goal can show: an event goal charts its event series and breaks the panels down by its conversions; an
 * exact page goal charts that page's hits and breaks the panels down by that page; a pattern matches many pages,
 * which the API sums only over the whole range, so it is listed but not charted.
 */
import { MISSING } from './formatNumbers';
import type { GoalInput } from './generated/graphql';

/** The API's limit per `conversions` query. */
export const MAX_GOALS = 20;

export type Goal =
  { readonly kind: 'event'; readonly event: string } | { readonly kind: 'page'; readonly page: string };

/** A page pattern starts with "/", as every page does; anything else is an event name. */
export function parseGoal(text: string): Goal | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return trimmed.startsWith('/') ? { kind: 'page', page: trimmed } : { kind: 'event', event: trimmed };
}

/** The goal as typed, and as the URL keeps it. */
export function goalText(goal: Goal): string {
  return goal.kind === 'event' ? goal.event : goal.page;
}

export function goalInput(goal: Goal): GoalInput {
  return goal.kind === 'event' ? { event: goal.event } : { page: goal.page };
}

/** How the chart, table and bars name the goal (the API's `Conversion.goal` says "Visit <pattern>" too). */
export function goalLabel(goal: Goal): string {
  return goal.kind === 'event' ? goal.event : `Visit ${goal.page}`;
}

/** The `goal` parameters, deduplicated and at most MAX_GOALS. */
export function readGoals(params: readonly string[]): Goal[] {
  const goals: Goal[] = [];
  for (const param of params) {
    const goal = parseGoal(param);
    if (goal && !goals.some((g) => goalText(g) === goalText(goal))) goals.push(goal);
  }
  return goals.slice(0, MAX_GOALS);
}

export function sameGoal(a: Goal | undefined, b: Goal | undefined): boolean {
  return a !== undefined && b !== undefined && goalText(a) === goalText(b);
}

/**
 * What the selected goal adds to the view: the series to chart (an event's, or an exact page's hits) and what the
 * panels break down (the event's conversions, or the page's hits), or why a pattern cannot be charted.
 */
export type GoalFocus =
  | { readonly event: string; readonly panelEvent: string }
  | { readonly page: string; readonly panelPage: string }
  | { readonly reason: string };

export function goalFocus(goal: Goal): GoalFocus {
  if (goal.kind === 'event') return { event: goal.event, panelEvent: goal.event };
  if (!goal.page.includes('*')) return { page: goal.page, panelPage: goal.page };
  return {
    reason:
      `${goalLabel(goal)} matches many pages, whose hits the API sums over the whole range only: ` +
      'its figures are in the Goals panel; enter one of its pages as a goal (or under Pages) to chart it.',
  };
}

/** A conversion rate (0 to 1) as a percentage with one decimal: "12.5 %"; null: "—". */
export function formatRate(rate: number | null | undefined): string {
  if (rate == null || !Number.isFinite(rate)) return MISSING;
  return `${(Math.round(rate * 1000) / 10).toFixed(1)} %`;
}

/** Revenue per currency, as the API gives it (exact decimal strings): "29.90 EUR, 5.00 USD"; none: "—". */
export function formatRevenue(revenue: readonly { readonly currency: string; readonly amount: string }[]): string {
  return revenue.length === 0 ? MISSING : revenue.map((money) => `${money.amount} ${money.currency}`).join(', ');
}
