/**
 * An independent sessionisation of hits that arrive in time order (the oracle of the visit tests, issue 29): each
 * visitor's hits on a site, sorted by time, split where the gap reaches the timeout. Written from the definition in
 * the README, not from src/domain/visits. Counted over all time (sessionise) or per period of each visit's start
 * (sessioniseBy: a visit belongs to the period of its first hit).
 */
export interface OracleHit {
  readonly site: string;
  readonly page: string;
  readonly at: number;
  readonly visitor: string;
  readonly event?: string | undefined;
}

export interface OracleCounts {
  visits: number;
  bounces: number;
  seconds: number;
  pageviews: number;
  entries: number;
  exits: number;
}

const empty = (): OracleCounts => ({ visits: 0, bounces: 0, seconds: 0, pageviews: 0, entries: 0, exits: 0 });

/** Site counters (key '') and page counters, by page: `visits` on a page = visits that viewed it. */
export function sessionise(hits: readonly OracleHit[], timeoutMs: number): Map<string, OracleCounts> {
  return sessioniseBy(hits, timeoutMs, () => 0).get(0) ?? new Map();
}

/**
 * The same counters per period of each visit's first hit (`periodOf(start)`: e.g. its UTC minute), as a visit belongs
 * to the period it started in: period → page ('' for the site) → counters.
 */
export function sessioniseBy(
  hits: readonly OracleHit[],
  timeoutMs: number,
  periodOf: (at: number) => number,
): Map<number, Map<string, OracleCounts>> {
  const byVisitor = new Map<string, OracleHit[]>();
  for (const hit of hits) {
    const key = `${hit.site}\u0000${hit.visitor}`;
    byVisitor.set(key, [...(byVisitor.get(key) ?? []), hit]);
  }
  const periods = new Map<number, Map<string, OracleCounts>>();
  for (const visitorHits of byVisitor.values()) {
    const sorted = [...visitorHits].sort((a, b) => a.at - b.at);
    const visits: OracleHit[][] = [];
    for (const hit of sorted) {
      const current = visits[visits.length - 1];
      const last = current?.[current.length - 1];
      if (current !== undefined && last !== undefined && hit.at - last.at < timeoutMs) current.push(hit);
      else if (hit.event === undefined) visits.push([hit]);
    }
    for (const visit of visits) {
      const period = periodOf((visit[0] as OracleHit).at);
      let counts = periods.get(period);
      if (counts === undefined) periods.set(period, (counts = new Map()));
      const of = counterOf(counts);
      const views = visit.filter((hit) => hit.event === undefined);
      const entry = (views[0] as OracleHit).page;
      const exit = (views[views.length - 1] as OracleHit).page;
      const bounce = views.length === 1 && visit.length === 1 ? 1 : 0;
      const seconds =
        Math.floor((visit[visit.length - 1] as OracleHit).at / 1000) - Math.floor((visit[0] as OracleHit).at / 1000);
      for (const counter of [of(''), of(entry)]) {
        counter.bounces += bounce;
        counter.seconds += seconds;
        counter.pageviews += views.length;
      }
      of('').visits += 1;
      of(entry).entries += 1;
      of(exit).exits += 1;
      for (const page of new Set(views.map((hit) => hit.page))) of(page).visits += 1;
    }
  }
  return periods;
}

function counterOf(counts: Map<string, OracleCounts>): (page: string) => OracleCounts {
  return (page) => {
    let found = counts.get(page);
    if (found === undefined) counts.set(page, (found = empty()));
    return found;
  };
}
