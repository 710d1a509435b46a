/**
 * The dashboard served at /dashboard: a site over a range — top-line figures against the previous period, its hits
 * and visitors charted with uPlot beside its pages and a clicked dimension value, and panels of sources, campaigns,
 * countries, browsers, systems and devices — kept live through `pageStatsLive`. It uses only the public GraphQL
 * API, like any frontend would (operations.ts). State lives in the URL (?site=&pages=&range=&granularity=&filter=, or
 * &from=&to= for a custom range of days: viewPeriod.ts), the API key in memory only.
 */
import uPlot from 'uplot';
import { postGraphQL, wsClient } from '../shared/graphqlTransport';
import type { GraphQLResult } from '../shared/graphqlTransport';
import { describeFilter, filterParam, parseFilterParam, planFilter } from './dimensionFilter';
import type { DimensionFilter, FilterPlan } from './dimensionFilter';
import { LiveCounts, bucketIndex } from './liveBuckets';
import type { LivePoint } from './liveBuckets';
import {
  FIRST_DAY_QUERY,
  LIVE_SUBSCRIPTION,
  TOP_PAGES_QUERY,
  siteGranularity,
  viewQuery,
  viewVariables,
} from './operations';
import type { SiteResult, ViewResult } from './operations';
import { PANELS } from './panels';
import type { BreakdownResult, DimensionName } from './panels';
import { pickGranularity } from './ranges';
import type { Granularity } from './ranges';
import { renderPanels } from './renderPanels';
import { renderSeriesTable } from './renderSeriesTable';
import { renderTopLine } from './renderTopLine';
import { topLine } from './topLine';
import { PAGE_COLORS, VISITORS_COLOR, viewSeries } from './viewSeries';
import type { ViewChart } from './viewSeries';
import {
  CUSTOM,
  DASHBOARD_ZONE,
  PERIOD_OPTIONS,
  needsFirstDay,
  periodId,
  periodParams,
  readPeriod,
  resolvePeriod,
} from './viewPeriod';
import type { PeriodChoice, ResolvedPeriod } from './viewPeriod';
import { localDay, parseDayRange } from './periods';
import type { DayRange } from './periods';
import './dashboard.css';

const MAX_PAGES = PAGE_COLORS.length;
const TOP_PAGES = 5;
/** Hits on pages not charted, visitors and panels reach the page only when the view is read again. */
const REFRESH_MS = 60_000;

interface View {
  site: string;
  /** Empty: chart the site's top pages over the range. */
  pages: string[];
  period: PeriodChoice;
  /** As asked for until the view is loaded, then fitted to the period (fitView). */
  granularity: Granularity;
  /** The charted dimension value, if one was clicked. */
  filter?: DimensionFilter | undefined;
  /** The chart moved from MINUTE or HOUR to DAY to chart the filter. */
  switched?: boolean;
}

interface Chart {
  /** The view as chosen (reloads fit it again: a calendar period moves with the clock). */
  asked: View;
  view: View;
  /** The period's whole days, for calendar periods. */
  days: DayRange | undefined;
  /** Hits can still arrive inside the period: live updates are followed. */
  live: boolean;
  pages: string[];
  data: ViewChart;
  /** The whole-site series of the figures (the chart's, or by minute for a SECOND chart). */
  site: SiteResult | undefined;
  /** Live hits added inside the figures' span since the view was read. */
  liveHits: number;
  readAt: number;
  plot: uPlot;
}

const form = document.getElementById('controls') as HTMLFormElement;
const field = (name: string): HTMLInputElement & HTMLSelectElement =>
  form.elements.namedItem(name) as HTMLInputElement & HTMLSelectElement;
const status = document.getElementById('status') as HTMLElement;
const customDays = document.getElementById('custom-days') as HTMLElement;
const figuresBox = document.getElementById('figures') as HTMLElement;
const figureNotes = document.getElementById('figure-notes') as HTMLElement;
const filterBar = document.getElementById('filter') as HTMLElement;
const chartBox = document.getElementById('chart') as HTMLElement;
const totalsBody = document.querySelector('#totals tbody') as HTMLElement;
const panelsBox = document.getElementById('panels') as HTMLElement;
const panelsNote = document.getElementById('panels-note') as HTMLElement;

let current: View | undefined;
let chart: Chart | undefined;
let subscribedPages = '';
let unsubscribers: (() => void)[] = [];
let generation = 0;
let reloading = false;
/** The status line shows a failed read: the next successful read clears it. */
let readFailed = false;

function setStatus(text: string, state: 'loading' | 'live' | 'error' | 'ready'): void {
  status.textContent = text;
  status.dataset.state = state;
}

function describeErrors(errors: GraphQLResult['errors']): string | undefined {
  if (!errors || errors.length === 0) return undefined;
  return errors
    .map((e) => (typeof e.extensions?.code === 'string' ? `${e.message} (${e.extensions.code})` : e.message))
    .join('; ');
}

function authorization(): string | undefined {
  const key = field('key').value.trim();
  return key ? `Bearer ${key}` : undefined;
}

async function query<T>(request: { query: string; variables: Record<string, unknown> }): Promise<GraphQLResult<T>> {
  const auth = authorization();
  return postGraphQL<T>(request, auth ? { authorization: auth } : {}).catch((error: unknown) => ({
    errors: [{ message: String(error) }],
  }));
}

/** A view with its granularity fitted to the period and, when a value is charted, to day buckets. */
function fitView(view: View, range: ResolvedPeriod): View {
  const granularity = pickGranularity(range, view.granularity);
  const plan = view.filter ? planFilter(view.filter, range, granularity) : undefined;
  if (plan && 'granularity' in plan) return { ...view, granularity: plan.granularity, switched: plan.switched };
  return { ...view, granularity, switched: false };
}

function readView(params: URLSearchParams): View {
  const pages = (params.get('pages') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return {
    site: params.get('site') || 'example.com',
    pages: pages.slice(0, MAX_PAGES),
    period: readPeriod(params.get('range'), params.get('from'), params.get('to')),
    granularity: (params.get('granularity') ?? '') as Granularity,
    filter: parseFilterParam(params.get('filter')),
  };
}

function writeUrl(view: View): void {
  const params = new URLSearchParams({ site: view.site, ...periodParams(view.period), granularity: view.granularity });
  if (view.pages.length > 0) params.set('pages', view.pages.join(','));
  if (view.filter) params.set('filter', filterParam(view.filter));
  history.replaceState(null, '', `?${params}`);
}

function fillControls(view: View): void {
  field('site').value = view.site;
  field('pages').value = view.pages.join(', ');
  const selected = periodId(view.period);
  field('range').replaceChildren(...PERIOD_OPTIONS.map((p) => new Option(p.label, p.id, false, p.id === selected)));
  if (view.period.kind === 'custom') {
    field('from').value = view.period.days.first;
    field('to').value = view.period.days.last;
  }
  showCustomDays();
}

/** The day pickers show while the period is a custom range; they start from the days last shown. */
function showCustomDays(): void {
  const custom = field('range').value === CUSTOM;
  customDays.hidden = !custom;
  if (!custom || (field('from').value && field('to').value)) return;
  const today = localDay(Date.now(), DASHBOARD_ZONE);
  const shown = chart?.days;
  field('from').value = shown?.first ?? today;
  field('to').value = shown?.last ?? today;
}

/** The granularities the loaded period offers; the select keeps what was asked for until then. */
function fillGranularities(range: ResolvedPeriod, selected: Granularity): void {
  field('granularity').replaceChildren(
    ...range.granularities.map((g) => new Option(g.toLowerCase(), g, false, g === selected)),
  );
}

function viewFromControls(): View {
  const params = new URLSearchParams({
    site: field('site').value.trim(),
    pages: field('pages').value,
    granularity: field('granularity').value,
  });
  if (field('range').value === CUSTOM) {
    params.set('from', field('from').value);
    params.set('to', field('to').value);
  } else params.set('range', field('range').value);
  // The charted value stays across other changes of the view; the filter bar's button clears it.
  if (current?.filter) params.set('filter', filterParam(current.filter));
  const view = readView(params);
  // The granularity follows the span: another period starts at its own default.
  const samePeriod =
    current && JSON.stringify(periodParams(current.period)) === JSON.stringify(periodParams(view.period));
  return samePeriod ? view : { ...view, granularity: '' as Granularity };
}

function renderFilterBar(view: View, plan: FilterPlan | undefined): void {
  if (!view.filter || !plan) {
    filterBar.replaceChildren();
    filterBar.hidden = true;
    return;
  }
  const text = document.createElement('span');
  if ('reason' in plan) {
    text.className = 'reason';
    text.textContent = plan.reason;
  } else {
    text.textContent = `Charting ${describeFilter(view.filter)}`;
    if (view.switched) {
      text.textContent += ' — the chart shows days: hits per dimension value are counted per UTC day.';
    }
  }
  const clear = document.createElement('button');
  clear.type = 'button';
  clear.className = 'clear';
  clear.textContent = 'Clear ×';
  clear.title = 'Stop charting this value';
  clear.addEventListener('click', () => navigate({ ...view, filter: undefined }));
  filterBar.replaceChildren(text, ' ', clear);
  filterBar.hidden = false;
}

function plotData(data: ViewChart): uPlot.AlignedData {
  const lines: (number | null)[][] = [];
  for (const series of data.series) {
    lines.push(series.hits);
    if (series.kind === 'site' && data.visitors) lines.push(data.visitors);
  }
  return [data.starts.map((t) => t / 1000), ...lines];
}

function draw(next: Omit<Chart, 'plot'>): Chart {
  chart?.plot.destroy();
  const granularity = next.view.granularity;
  const stepped = granularity !== 'SECOND' && granularity !== 'MINUTE';
  const points = { show: next.data.starts.length <= 40 };
  const paths = stepped ? uPlot.paths.stepped?.({ align: 1 }) : undefined;
  const series: uPlot.Series[] = [{}];
  for (const s of next.data.series) {
    series.push({
      label: s.label,
      stroke: s.color,
      width: s.kind === 'site' ? 1.5 : 2,
      dash: s.kind === 'site' ? [6, 4] : s.kind === 'filtered' ? [2, 3] : undefined,
      points,
      paths,
    });
    if (s.kind === 'site' && next.data.visitors) {
      series.push({ label: `visitors (${next.view.site})`, stroke: VISITORS_COLOR, width: 2, points, paths });
    }
  }
  const hasVisitors = next.data.visitors !== undefined;
  const plot = new uPlot(
    {
      width: Math.min(1100, Math.max(480, window.innerWidth - 40)),
      height: 320,
      series,
      axes: [{}, { label: `${hasVisitors ? 'hits and visitors' : 'hits'} per ${granularity.toLowerCase()}` }],
      // Visitors never exceed hits: one scale from 0 serves both.
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    },
    plotData(next.data),
    chartBox,
  );
  return { ...next, plot };
}

function showFigures(shown: Chart): void {
  renderTopLine(figuresBox, figureNotes, shown.site ? topLine(shown.site, shown.liveHits, shown.readAt) : undefined);
}

/** The chosen pages, or the site's busiest over the range. */
async function resolvePages(view: View, range: { from: string; to: string }): Promise<string[] | string> {
  if (view.pages.length > 0) return view.pages;
  const result = await query<{ topPages: { edges: { node: { page: string } }[] } }>({
    query: TOP_PAGES_QUERY,
    variables: { site: view.site, ...range, first: TOP_PAGES },
  });
  if (!result.data?.topPages) return describeErrors(result.errors) ?? 'No data';
  return result.data.topPages.edges.map((edge) => edge.node.page);
}

function clearView(): void {
  chart?.plot.destroy();
  chart = undefined;
  chartBox.replaceChildren();
  totalsBody.replaceChildren();
  renderTopLine(figuresBox, figureNotes, undefined);
  panelsBox.replaceChildren();
  panelsNote.textContent = '';
}

/** Nothing to show: an empty view and the reason in the status line, until a read succeeds. */
function showFailure(reason: string): void {
  clearView();
  setStatus(reason, 'error');
  readFailed = true;
}

/** The period at this moment, or why there is none (all time of a site without hits, a failed read). */
async function resolve(view: View): Promise<ResolvedPeriod | string> {
  let firstDay: string | undefined;
  if (needsFirstDay(view.period)) {
    const result = await query<{ firstDay: string | null }>({ query: FIRST_DAY_QUERY, variables: { site: view.site } });
    if (!result.data) return describeErrors(result.errors) ?? 'No data';
    if (result.data.firstDay === null) return `No hits are stored for ${view.site} yet.`;
    firstDay = localDay(Date.parse(result.data.firstDay), DASHBOARD_ZONE);
  }
  return resolvePeriod(view.period, Date.now(), DASHBOARD_ZONE, firstDay) ?? 'No data';
}

/** `asked`: the view as chosen; its granularity is fitted to the period as it is now. */
async function load(asked: View): Promise<void> {
  const mine = ++generation;
  if (!chart || chart.asked !== asked) setStatus('Loading…', 'loading');
  const resolved = await resolve(asked);
  if (mine !== generation) return;
  if (typeof resolved === 'string') {
    showFailure(resolved);
    return;
  }
  const range = { from: resolved.from, to: resolved.to };
  const view = fitView(asked, resolved);
  if (current === asked) current = view;
  writeUrl(view);
  fillGranularities(resolved, view.granularity);
  const pages = await resolvePages(view, range);
  if (mine !== generation) return;
  if (typeof pages === 'string') {
    showFailure(pages);
    return;
  }
  const plan = view.filter ? planFilter(view.filter, resolved, view.granularity) : undefined;
  const filter = plan && 'granularity' in plan ? view.filter : undefined;
  const readAt = Date.now();
  const result = await query<ViewResult>({
    query: viewQuery({ pageCount: pages.length, filtered: filter !== undefined, granularity: view.granularity }),
    variables: viewVariables({ site: view.site, pages, range, granularity: view.granularity, filter }),
  });
  if (mine !== generation) return;
  renderFilterBar(view, plan);
  const data = result.data;
  const built = data
    ? viewSeries(data, {
        site: view.site,
        pages,
        siteDrawn: siteGranularity(view.granularity) === view.granularity,
        filter,
      })
    : undefined;
  if (!data || !built) {
    showFailure(describeErrors(result.errors) ?? 'No data');
    return;
  }
  const errorsOf = (alias: string): string | undefined =>
    describeErrors(result.errors?.filter((error) => error.path?.[0] === alias));
  renderPanels(
    panelsBox,
    panelsNote,
    {
      results: Object.fromEntries(PANELS.map((p) => [p.alias, data[p.alias] as BreakdownResult | null | undefined])),
      errors: Object.fromEntries(PANELS.map((p) => [p.alias, errorsOf(p.alias) ?? 'Not loaded'])),
    },
    view.filter,
    pick,
  );
  chart = draw({
    asked,
    view,
    days: resolved.days,
    live: resolved.live,
    pages,
    data: built,
    site: data.site ?? undefined,
    liveHits: 0,
    readAt,
  });
  renderSeriesTable(totalsBody, chart.data.series);
  showFigures(chart);
  const failed = describeErrors(result.errors);
  if (failed) setStatus(`Some parts failed: ${failed}`, 'error');
  else if (pages.length === 0) setStatus('No page of this site has hits in this range yet.', 'ready');
  else if (readFailed) setStatus('Loaded', 'ready');
  readFailed = failed !== undefined;
  subscribe(chart);
}

function applyLive(shown: Chart, page: string, deltas: LivePoint[]): void {
  if (chart !== shown || deltas.length === 0) return;
  const target = shown.data.series.find((s) => s.kind === 'page' && s.page === page);
  if (!target) return;
  const site = shown.data.series.find((s) => s.kind === 'site');
  const figuresFrom = shown.site ? Date.parse(shown.site.from) : 0;
  const figuresTo = shown.site ? Date.parse(shown.site.to) : 0;
  for (const delta of deltas) {
    const i = bucketIndex(shown.data.starts, shown.data.end, delta.t);
    if (i === shown.data.starts.length) {
      // The live bucket is past the charted range: time moved on, so read the whole view again.
      void reload();
      return;
    }
    if (i < 0) continue;
    // A live bucket is never one retention dropped; a null stays a gap.
    if (target.hits[i] != null) target.hits[i]! += delta.hits;
    // The whole site grows with each of its pages.
    if (site && site.hits[i] != null) site.hits[i]! += delta.hits;
    if (delta.t >= figuresFrom && delta.t < figuresTo) shown.liveHits += delta.hits;
  }
  shown.plot.setData(plotData(shown.data));
  renderSeriesTable(totalsBody, shown.data.series);
  showFigures(shown);
}

async function reload(): Promise<void> {
  if (reloading || !chart) return;
  reloading = true;
  try {
    await load(chart.asked);
  } finally {
    reloading = false;
  }
}

/** One subscription per charted page; kept across reloads while the pages and granularity stay the same. */
function subscribe(shown: Chart): void {
  if (!shown.live) {
    unsubscribers.forEach((stop) => stop());
    unsubscribers = [];
    subscribedPages = '';
    if (status.dataset.state !== 'error' && shown.pages.length > 0) {
      setStatus('Loaded (the period is over: no live updates)', 'ready');
    }
    return;
  }
  const granularity = shown.view.granularity === 'SECOND' ? 'SECOND' : 'MINUTE';
  const id = JSON.stringify([shown.view.site, shown.pages, granularity, authorization()]);
  if (id === subscribedPages) {
    if (status.dataset.state !== 'error') setStatus('Live', 'live');
    return;
  }
  unsubscribers.forEach((stop) => stop());
  subscribedPages = id;
  const client = wsClient(authorization());
  let waiting = shown.pages.length;
  if (waiting === 0) return;
  if (status.dataset.state !== 'error') setStatus('Loaded; connecting live updates…', 'ready');
  unsubscribers = shown.pages.map((page) => {
    const counts = new LiveCounts();
    let first = true;
    return client.subscribe<{ pageStatsLive: { snapshot: boolean; points: { t: string; hits: number }[] } }>(
      {
        query: LIVE_SUBSCRIPTION,
        variables: { site: shown.view.site, page, granularity, window: granularity === 'SECOND' ? 60 : 120 },
      },
      {
        next: (message) => {
          const update = message.data?.pageStatsLive;
          if (!update) {
            setStatus(describeErrors(message.errors) ?? 'Live update failed', 'error');
            return;
          }
          const points = update.points.map((p) => ({ t: Date.parse(p.t), hits: p.hits }));
          const deltas = counts.apply(update.snapshot, points);
          // Later charts of the same pages (after a reload) receive the updates too.
          if (chart && chart.view.site === shown.view.site) applyLive(chart, page, deltas);
          if (first && update.snapshot) {
            first = false;
            waiting -= 1;
            if (waiting === 0 && status.dataset.state !== 'error') setStatus('Live', 'live');
          }
        },
        error: (error) => setStatus(`Live updates stopped: ${String((error as Error).message ?? error)}`, 'error'),
        complete: () => undefined,
      },
    );
  });
}

async function show(view: View): Promise<void> {
  current = view;
  fillControls(view);
  await load(view);
}

function navigate(view: View): void {
  writeUrl(view);
  void show(view);
}

function pick(dimension: DimensionName, value: string): void {
  navigate({ ...(current ?? viewFromControls()), filter: { dimension, value } });
}

form.addEventListener('change', (event) => {
  const target = event.target as HTMLElement;
  // A custom range waits for its days and the Show button.
  if (target.getAttribute('name') === 'range') showCustomDays();
  if (target.tagName === 'SELECT' && !(target.getAttribute('name') === 'range' && field('range').value === CUSTOM)) {
    form.requestSubmit();
  }
});
form.addEventListener('submit', (event) => {
  event.preventDefault();
  // A custom range the URL could not keep would show the default period instead: say what is wrong.
  if (field('range').value === CUSTOM && !parseDayRange(field('from').value, field('to').value)) {
    setStatus('A custom range needs two days, the first on or before the last.', 'error');
    return;
  }
  navigate(viewFromControls());
});
setInterval(() => {
  if (document.visibilityState === 'visible') void reload();
}, REFRESH_MS);

const initial = readView(new URLSearchParams(location.search));
if (initial.filter) writeUrl(initial);
void show(initial);
