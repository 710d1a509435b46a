/**
 * Visitor and dimension inputs for synthetic traffic (issues 19, 20), a pure function of the hit's index: a visitor
 * id out of 5,000, a referrer out of 40 hosts (a third of hits direct), a User-Agent out of 20 real ones, a client
 * address out of 2,000. What a site's beacon or log sees, so ingest pays for hashing, parsing and lookups as it would.
 */
import { unitAt } from './random';

const AGENT_TEMPLATES = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{v}.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.{v} Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:{v}.0) Gecko/20100101 Firefox/{v}.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_{v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{v}.0.0.0 Mobile Safari/537.36',
];
export const USER_AGENTS: readonly string[] = Array.from({ length: 20 }, (_, i) =>
  (AGENT_TEMPLATES[i % AGENT_TEMPLATES.length] as string).replaceAll('{v}', String(120 + Math.floor(i / 5))),
);
export const REFERRERS: readonly string[] = Array.from({ length: 40 }, (_, i) =>
  i < 5 ? `https://www.google.${['com', 'de', 'fr', 'co.uk', 'nl'][i]}/` : `https://blog${i}.example.org/post/${i}`,
);
const VISITORS = 5_000;
const ADDRESSES = 2_000;

export interface HitInputs {
  readonly visitor: string;
  readonly referrer: string | undefined;
  readonly userAgent: string;
  readonly clientIp: string;
}

export function hitInputs(seed: number, index: number): HitInputs {
  const pick = (salt: number, size: number): number => Math.floor(unitAt(seed + salt, index) * size);
  const address = pick(3, ADDRESSES);
  const referrer = pick(2, REFERRERS.length * 1.5);
  return {
    visitor: `visitor-${pick(1, VISITORS)}`,
    referrer: REFERRERS[referrer],
    userAgent: USER_AGENTS[pick(4, USER_AGENTS.length)] as string,
    clientIp: `${80 + (address % 100)}.${(address * 7) % 256}.${(address * 13) % 256}.${address % 250}`,
  };
}

/** Hits `from` to `to` (exclusive) as recordHitColumns' visitor and dimension dictionaries with per-hit indexes. */
export function inputColumns(seed: number, from: number, to: number): Record<string, unknown[]> {
  const dictionaries = {
    visitors: new Map<string, number>(),
    referrers: new Map<string, number>(),
    userAgents: new Map<string, number>(),
    clientIps: new Map<string, number>(),
  };
  const indexes = {
    visitorIndex: [] as number[],
    referrerIndex: [] as number[],
    userAgentIndex: [] as number[],
    clientIpIndex: [] as number[],
  };
  const indexOf = (dictionary: Map<string, number>, value: string | undefined): number => {
    if (value === undefined) return -1;
    let index = dictionary.get(value);
    if (index === undefined) dictionary.set(value, (index = dictionary.size));
    return index;
  };
  for (let h = from; h < to; h++) {
    const inputs = hitInputs(seed, h);
    indexes.visitorIndex.push(indexOf(dictionaries.visitors, inputs.visitor));
    indexes.referrerIndex.push(indexOf(dictionaries.referrers, inputs.referrer));
    indexes.userAgentIndex.push(indexOf(dictionaries.userAgents, inputs.userAgent));
    indexes.clientIpIndex.push(indexOf(dictionaries.clientIps, inputs.clientIp));
  }
  return {
    visitors: [...dictionaries.visitors.keys()],
    referrers: [...dictionaries.referrers.keys()],
    userAgents: [...dictionaries.userAgents.keys()],
    clientIps: [...dictionaries.clientIps.keys()],
    ...indexes,
  };
}
