/**
 * The breakdown panels beside the pages table: which dimensions, under which alias and title, and the rows a
 * panel shows for one `breakdown` answer — its top values with their visits and bounce rate, the "(other)" remainder
 * and how many values it leaves out.
 */

/** The schema's Dimension enum. */
export type DimensionName =
  'SOURCE' | 'UTM_SOURCE' | 'UTM_MEDIUM' | 'UTM_CAMPAIGN' | 'COUNTRY' | 'BROWSER' | 'OS' | 'DEVICE';

export const DIMENSION_NAMES: readonly DimensionName[] = [
  'SOURCE',
  'UTM_SOURCE',
  'UTM_MEDIUM',
  'UTM_CAMPAIGN',
  'COUNTRY',
  'BROWSER',
  'OS',
  'DEVICE',
];

/** How a dimension is named in text ("source: Google"). */
export const DIMENSION_LABELS: Readonly<Record<DimensionName, string>> = {
  SOURCE: 'source',
  UTM_SOURCE: 'UTM source',
  UTM_MEDIUM: 'UTM medium',
  UTM_CAMPAIGN: 'UTM campaign',
  COUNTRY: 'country',
  BROWSER: 'browser',
  OS: 'operating system',
  DEVICE: 'device',
};

export interface PanelSpec {
  /** The field alias in the view query, and the panel's element id suffix. */
  readonly alias: string;
  readonly dimension: DimensionName;
  readonly title: string;
}

export const PANELS: readonly PanelSpec[] = [
  { alias: 'sources', dimension: 'SOURCE', title: 'Sources' },
  { alias: 'campaigns', dimension: 'UTM_CAMPAIGN', title: 'UTM campaigns' },
  { alias: 'countries', dimension: 'COUNTRY', title: 'Countries' },
  { alias: 'browsers', dimension: 'BROWSER', title: 'Browsers' },
  { alias: 'systems', dimension: 'OS', title: 'Operating systems' },
  { alias: 'devices', dimension: 'DEVICE', title: 'Devices' },
];

/** Values per panel: the top ten by hits. */
export const PANEL_SIZE = 10;

export interface BreakdownResult {
  from: string;
  to: string;
  totalCount: number;
  other: number;
  edges: {
    node: {
      value: string;
      hits: number;
      visitors: number | null;
      /** Visits whose first hit had this value; null where the API keeps none (a goal's page or event). */
      visits?: number | null;
      bounceRate?: number | null;
    };
  }[];
}

export interface PanelRow {
  readonly value: string;
  readonly hits: number;
  readonly visitors: number | null;
  readonly visits: number | null;
  readonly bounceRate: number | null;
  /** A value can be charted; the "(other)" remainder is hits of many values and cannot. */
  readonly chartable: boolean;
  /** What a marker means, shown beside it. */
  readonly note?: string;
}

export interface PanelContent {
  readonly rows: readonly PanelRow[];
  /** Values with hits that the panel does not list ("and N more"). */
  readonly more: number;
}

/**
 * "(internal)" (a referrer on the site itself) is listed, labelled, rather than hidden: the panel's rows then add
 * up to the site's hits like every other panel's.
 */
const MARKER_NOTES: Readonly<Record<string, string>> = {
  '(internal)': 'from the site itself',
  '(direct)': 'no referrer',
};

export const OTHER = '(other)';

export function panelContent(result: BreakdownResult): PanelContent {
  const rows: PanelRow[] = result.edges.map(({ node }) => {
    const note = MARKER_NOTES[node.value];
    return {
      value: node.value,
      hits: node.hits,
      visitors: node.visitors,
      visits: node.visits ?? null,
      bounceRate: node.bounceRate ?? null,
      chartable: true,
      ...(note ? { note } : {}),
    };
  });
  if (result.other > 0) {
    rows.push({
      value: OTHER,
      hits: result.other,
      visitors: null,
      visits: null,
      bounceRate: null,
      chartable: false,
      note: 'values not kept apart',
    });
  }
  return { rows, more: Math.max(0, result.totalCount - result.edges.length) };
}
