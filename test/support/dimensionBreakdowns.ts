/**
 * Every dimension's `breakdown` read in one GraphQL request, and checked against the recount (recountHits.ts):
 * values and hits exactly, in rank order, with an exact totalCount and nothing under "(other)"; per-value visitors
 * within ±1 where the site keeps them (site totals of DIMENSION_VISITORS' default: browser, OS, device), null
 * everywhere else. ±1: the per-value sketches (256 registers) give their sparse count up to 32 visitors, which
 * never overcounts and undercounts only when two visitors share register, rung and fingerprint (about 1 in 480).
 */
import { httpGraphql } from './httpGraphql';
import { DIMENSION_NAMES, recountBreakdown, within } from './recountHits';
import type { DimensionName, SentHit } from './recountHits';

export interface Breakdown {
  readonly totalCount: number;
  readonly other: number;
  readonly pageInfo: { readonly hasNextPage: boolean };
  readonly edges: ReadonlyArray<{ readonly node: { value: string; hits: number; visitors: number | null } }>;
}

export type Breakdowns = Readonly<Record<DimensionName, Breakdown>>;

/** The dimensions whose values keep visitors in site totals by default (DIMENSION_VISITORS). */
export const VALUE_VISITORS: ReadonlySet<DimensionName> = new Set(['BROWSER', 'OS', 'DEVICE']);

const FIELDS = 'totalCount other pageInfo { hasNextPage } edges { node { value hits visitors } }';

/** Every dimension's breakdown of `site` (of one `page` when given) over [from, to), up to 100 values each. */
export async function readBreakdowns(
  graphqlUrl: string,
  headers: Record<string, string>,
  where: { site: string; page?: string | undefined; from: string; to: string },
): Promise<Breakdowns> {
  const fields = DIMENSION_NAMES.map(
    (dimension) =>
      `${dimension}: breakdown(site: $site, page: $page, dimension: ${dimension}, range: { from: $from, to: $to }, first: 100) { ${FIELDS} }`,
  );
  const { body } = await httpGraphql<Breakdowns>(
    graphqlUrl,
    `query ($site: String!, $page: String, $from: DateTime!, $to: DateTime!) { ${fields.join('\n')} }`,
    where,
    headers,
  );
  expect(body.errors).toBeUndefined();
  return body.data as Breakdowns;
}

/** `siteTotals`: the breakdowns are of a whole site (no page), where per-value visitors are kept. */
export function expectBreakdowns(got: Breakdowns, hits: readonly SentHit[], siteTotals: boolean): void {
  for (const dimension of DIMENSION_NAMES) {
    const truth = recountBreakdown(hits, dimension);
    const result = got[dimension];
    const nodes = result.edges.map((edge) => edge.node);
    expect({ dimension, values: nodes.map(({ value, hits: n }) => [value, n]) }).toEqual({
      dimension,
      values: truth.map(({ value, hits: n }) => [value, n]),
    });
    expect({
      dimension,
      totalCount: result.totalCount,
      other: result.other,
      more: result.pageInfo.hasNextPage,
    }).toEqual({ dimension, totalCount: truth.length, other: 0, more: false });
    const keepsVisitors = siteTotals && VALUE_VISITORS.has(dimension);
    const visitors = nodes.map((node) => node.visitors);
    const expected = truth.map((row) => (keepsVisitors ? row.visitors : null));
    const compared = keepsVisitors ? within(visitors, expected as number[], 1) : visitors;
    expect({ dimension, visitors: compared }).toEqual({ dimension, visitors: expected });
  }
}
