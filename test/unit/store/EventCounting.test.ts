import { BSON } from 'mongodb';
import { DIMENSIONS } from '../../../src/domain/dimensions/Dimension';
import type { DimensionValues } from '../../../src/domain/dimensions/Dimension';
import { MAX_DIMENSION_VALUE_LENGTH } from '../../../src/domain/dimensions/Dimension';
import { MAX_EVENT_NAME_LENGTH, MAX_PROP_KEY_LENGTH, MAX_PROP_VALUE_LENGTH } from '../../../src/domain/events/HitEvent';
import type { HitEvent } from '../../../src/domain/events/HitEvent';
import {
  EventCounting,
  MAX_CURRENCIES,
  MAX_DIMENSION_VALUES,
  MAX_DOCUMENT_PROP_VALUES,
  MAX_EVENT_NAMES,
  MAX_PROP_KEYS,
  MAX_PROP_VALUES,
} from '../../../src/store/EventCounting';
import { EVENT_VISITOR_MASK } from '../../../src/store/eventDocument';
import { PendingUpdates } from '../../../src/store/PendingUpdates';
import type { PendingDocument } from '../../../src/store/PendingUpdates';

const idOf = (site: string, page: string, period: number): string => `${period}/${site}${page}`;
const MARKERS: DimensionValues = {
  source: '(direct)',
  utmSource: '(none)',
  utmMedium: '(none)',
  utmCampaign: '(none)',
  browser: '(unknown)',
  os: '(unknown)',
  device: '(unknown)',
  country: '(unknown)',
};

function newDocument(): PendingDocument {
  return new PendingUpdates().document('a.example', '/', 0, idOf);
}

/** The stored document a fresh upsert of `document` makes: every `$inc` and `$bit` path set. */
function materialise(document: PendingDocument): Record<string, unknown> {
  const root: Record<string, unknown> = {
    _id: document.key.id,
    metadata: { date: document.key.date, site: document.key.site, page: document.key.page },
  };
  const set = (path: string, value: number): void => {
    const parts = path.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1) as string] = value;
  };
  for (const [path, value] of document.inc) set(path, value);
  for (const [path, value] of document.bits) set(path, value);
  return root;
}

describe('EventCounting', () => {
  it('counts names, revenue, properties, dimensions and the visitor sketch at their paths', () => {
    const document = newDocument();
    const event: HitEvent = { name: 'Sign.up', props: [['plan', 'pro']], revenue: { currency: 'EUR', minor: 2990 } };
    new EventCounting().count(document, event, 2, 5, 7, { ...MARKERS, country: 'DE' });
    expect(Object.fromEntries(document.inc)).toMatchObject({
      'n.Sign%2Eup': 2,
      'r.Sign%2Eup.EUR': 5980,
      'p.Sign%2Eup.plan.pro': 2,
      'd.Sign%2Eup.country.DE': 2,
      'd.Sign%2Eup.source.(direct)': 2,
    });
    expect(Object.fromEntries(document.bits)).toEqual({ 'ev.Sign%2Eup.7': 5 });
  });

  it('counts names beyond the cap under (other), with their revenue but nothing else', () => {
    const document = newDocument();
    const counting = new EventCounting();
    for (let i = 0; i <= MAX_EVENT_NAMES; i++) {
      counting.count(
        document,
        { name: `e${i}`, props: [['k', 'v']], revenue: { currency: 'EUR', minor: 1 } },
        1,
        1,
        i,
        MARKERS,
      );
    }
    expect(document.inc.get(`n.e${MAX_EVENT_NAMES - 1}`)).toBe(1);
    expect(document.inc.get(`n.e${MAX_EVENT_NAMES}`)).toBeUndefined();
    expect(document.inc.get('n.(other)')).toBe(1);
    expect(document.inc.get('r.(other).EUR')).toBe(1);
    expect([...document.inc.keys()].filter((p) => p.startsWith('p.(other)') || p.startsWith('d.(other)'))).toEqual([]);
  });

  it('keeps property keys, values and dimension values apart up to their caps, the rest under (other)', () => {
    const document = newDocument();
    const counting = new EventCounting();
    const props = Array.from({ length: MAX_PROP_KEYS + 1 }, (_, k): [string, string] => [`k${k}`, 'v']);
    counting.count(document, { name: 'A', props }, 1, 0, 0, MARKERS);
    expect(document.inc.get(`p.A.k${MAX_PROP_KEYS - 1}.v`)).toBe(1);
    expect(document.inc.get('p.A.(other).(other)')).toBe(1);
    for (let v = 0; v <= MAX_PROP_VALUES; v++) {
      counting.count(document, { name: 'B', props: [['k', `v${v}`]] }, 1, 0, 0, { ...MARKERS, source: `s${v}` });
    }
    expect(document.inc.get('p.B.k.(other)')).toBe(1);
    expect(document.inc.get(`d.B.source.s${MAX_DIMENSION_VALUES - 1}`)).toBe(1);
    expect(document.inc.get('d.B.source.(other)')).toBe(1);
    for (let c = 0; c <= MAX_CURRENCIES; c++) {
      const currency = String.fromCharCode(65 + (c % 26), 65 + Math.floor(c / 26), 65);
      counting.count(document, { name: 'C', props: [], revenue: { currency, minor: 10 } }, 1, 0, 0, undefined);
    }
    expect(document.inc.get('r.C.(other)')).toBe(10);
  });

  it('bounds the entries it remembers, forgetting the least recently written documents first', () => {
    const counting = new EventCounting(100);
    const pending = new PendingUpdates();
    for (let d = 0; d < 50; d++) {
      const document = pending.document('a.example', `/p${d}`, 0, idOf);
      counting.count(document, { name: 'A', props: [['k', `v${d}`]] }, 1, 0, 0, MARKERS);
    }
    // Each document remembers 1 name + 1 key + 1 value + 8 dimension values = 11 entries.
    expect(counting.tracking).toEqual({ documents: 9, entries: 99 });
  });

  /**
   * The largest event document the caps allow: every name, key, value and dimension value at its longest, every
   * sketch register set. Printed for docs/benchmarks.md; it must stay far below MongoDB's 16 MB.
   */
  it('bounds the largest document far below 16 MB', () => {
    const document = newDocument();
    const counting = new EventCounting();
    const long = (prefix: string, length: number): string => prefix + 'x'.repeat(length - prefix.length);
    let value = 0;
    for (let n = 0; n < MAX_EVENT_NAMES; n++) {
      const name = long(`e${n}-`, MAX_EVENT_NAME_LENGTH);
      // Values are shared out over the names until the document's own cap is reached.
      const props: Array<[string, string]> = Array.from({ length: MAX_PROP_KEYS }, (_, k) => [
        long(`k${k}-`, MAX_PROP_KEY_LENGTH),
        long(`v${value++}-`, MAX_PROP_VALUE_LENGTH),
      ]);
      for (let d = 0; d < MAX_DIMENSION_VALUES; d++) {
        const dimensions = Object.fromEntries(
          DIMENSIONS.map((dimension) => [dimension, long(`${d}-`, Math.max(MAX_DIMENSION_VALUE_LENGTH[dimension], 4))]),
        ) as unknown as DimensionValues;
        counting.count(
          document,
          { name, props: d === 0 ? props : [], revenue: { currency: 'EUR', minor: 1 } },
          1,
          0x7fffffff,
          d,
          dimensions,
        );
      }
      for (let c = 0; c < MAX_CURRENCIES; c++) {
        const currency = String.fromCharCode(65 + c, 65, 65);
        counting.count(
          document,
          { name, props: [], revenue: { currency, minor: Number.MAX_SAFE_INTEGER } },
          1,
          0,
          0,
          undefined,
        );
      }
      for (let r = 0; r <= EVENT_VISITOR_MASK; r++)
        counting.count(document, { name, props: [] }, 1, 0x7fffffff, r, undefined);
    }
    for (let v = 0; v < MAX_DOCUMENT_PROP_VALUES; v++) {
      counting.count(
        document,
        {
          name: long('e0-', MAX_EVENT_NAME_LENGTH),
          props: [[long('k0-', MAX_PROP_KEY_LENGTH), long(`w${v}-`, MAX_PROP_VALUE_LENGTH)]],
        },
        1,
        0,
        0,
        undefined,
      );
    }
    const bytes = BSON.calculateObjectSize(materialise(document));
    process.stdout.write(`largest event document: ${bytes} bytes\n`);
    expect(bytes).toBeLessThan(5 * 1024 * 1024);
  });
});
