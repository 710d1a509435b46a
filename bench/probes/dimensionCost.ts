/**
 * What issue 20's dimensions cost per hit: deriving all of them (referrer source, UTM, User-Agent families,
 * country) with the User-Agent cache warm and cold, each part alone, and the bundled country database's size,
 * load time and memory. Prints numbers; no thresholds.
 *   npm run build && node --expose-gc dist/bench/probes/dimensionCost.js
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { bundledCountryDatabasePath } from '../../src/domain/dimensions/bundledCountryDatabase';
import { CountryLookup } from '../../src/domain/dimensions/CountryLookup';
import { deriveDimensions } from '../../src/domain/dimensions/deriveDimensions';
import type { DimensionContext, RawDimensionInputs } from '../../src/domain/dimensions/deriveDimensions';
import { parseClientIp } from '../../src/domain/dimensions/parseClientIp';
import { parseUserAgent } from '../../src/domain/dimensions/parseUserAgent';
import { referrerSource } from '../../src/domain/dimensions/referrerSource';
import { DEFAULT_USER_AGENT_CACHE_SIZE, UserAgentParser } from '../../src/domain/dimensions/UserAgentParser';
import { utmFrom } from '../../src/domain/dimensions/utmFrom';
import { parseOptions } from '../shared/options';
import { REAL_USER_AGENTS } from '../shared/userAgents';

const ROUNDS = 5;

const USER_AGENTS = REAL_USER_AGENTS.map(({ userAgent }) => userAgent);
const REFERRERS = [
  undefined,
  undefined,
  'https://www.google.com/',
  'https://www.bing.com/search?q=tally',
  'https://news.ycombinator.com/item?id=1',
  'https://blog.example.org/post/42',
  'https://example.com/pricing',
];

/** A deterministic generator, so every run measures the same inputs. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function publicIpv4(random: () => number): string {
  // 11.0.0.0–99.255.255.255 holds no special-purpose range.
  return `${11 + Math.floor(random() * 89)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`;
}

function publicIpv6(random: () => number): string {
  const group = (): string => Math.floor(random() * 0x10000).toString(16);
  return `2a0${Math.floor(random() * 10)}:${group()}:${group()}:${group()}::${group()}`;
}

/** CPU microseconds per call of `run` over `count` calls, median of ROUNDS. */
function cpuPerCall(count: number, run: (i: number) => unknown): number {
  const samples: number[] = [];
  let sink = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.cpuUsage();
    for (let i = 0; i < count; i++) sink += run(i) === undefined ? 0 : 1;
    const used = process.cpuUsage(start);
    samples.push((used.user + used.system) / count);
  }
  if (sink < 0) throw new Error('unreachable');
  return samples.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] as number;
}

function diskSize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? diskSize(full) : statSync(full).size;
  }
  return total;
}

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function main(): void {
  parseOptions(process.argv.slice(2), {});
  const lines: string[] = [];
  const line = (text: string): number => lines.push(text);

  line('packages on disk (bytes):');
  for (const name of ['ua-parser-js', 'mmdb-lib', '@ip-location-db/geo-whois-asn-country-mmdb']) {
    line(`  ${name}: ${diskSize(packageDir(name)).toLocaleString('en')}`);
  }

  gc();
  const before = process.memoryUsage();
  const loadStart = process.hrtime.bigint();
  const file = bundledCountryDatabasePath();
  const bytes = readFileSync(file);
  const countries = new CountryLookup(bytes, 'bundled');
  const loadMs = Number(process.hrtime.bigint() - loadStart) / 1e6;
  gc();
  const after = process.memoryUsage();
  const mb = (value: number): string => `${(value / 2 ** 20).toFixed(1)} MiB`;
  line(`country database: ${path.basename(file)}, ${bytes.length.toLocaleString('en')} bytes`);
  line(`  load (read + open + probe lookups): ${loadMs.toFixed(1)} ms`);
  line(
    `  memory after load: rss +${mb(after.rss - before.rss)}, heap +${mb(after.heapUsed - before.heapUsed)}, ` +
      `external +${mb(after.external - before.external)}` +
      ((globalThis as { gc?: unknown }).gc === undefined ? ' (run with --expose-gc for steadier numbers)' : ''),
  );

  const random = generator(20);
  const v4 = Array.from({ length: 10_000 }, () => publicIpv4(random));
  const v6 = Array.from({ length: 10_000 }, () => publicIpv6(random));
  const v4Parsed = v4.map((ip) => parseClientIp(ip));
  const v6Parsed = v6.map((ip) => parseClientIp(ip));
  const us = (value: number): string => `${value.toFixed(2)} µs`;
  line('country, CPU per call:');
  line(`  parseClientIp IPv4: ${us(cpuPerCall(100_000, (i) => parseClientIp(v4[i % v4.length] as string)))}`);
  line(`  parseClientIp IPv6: ${us(cpuPerCall(100_000, (i) => parseClientIp(v6[i % v6.length] as string)))}`);
  line(`  lookup IPv4: ${us(cpuPerCall(100_000, (i) => countries.lookup(v4Parsed[i % v4.length]!)))}`);
  line(`  lookup IPv6: ${us(cpuPerCall(100_000, (i) => countries.lookup(v6Parsed[i % v6.length]!)))}`);

  line('user agent, CPU per call:');
  line(
    `  parseUserAgent (no cache): ${us(cpuPerCall(20_000, (i) => parseUserAgent(USER_AGENTS[i % USER_AGENTS.length]!)))}`,
  );
  const warm = new UserAgentParser();
  line(
    `  UserAgentParser, cache hit: ${us(cpuPerCall(1_000_000, (i) => warm.parse(USER_AGENTS[i % USER_AGENTS.length]!)))}`,
  );
  // Every call a User-Agent never seen: parse plus insertion plus eviction in a full cache.
  const unique = USER_AGENTS.flatMap((ua) => Array.from({ length: 2_000 }, (_, n) => `${ua} Build/${n}`));
  const cold = new UserAgentParser(1_000);
  let next = 0;
  line(`  UserAgentParser, cache miss: ${us(cpuPerCall(4_000, () => cold.parse(unique[next++ % unique.length]!)))}`);

  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const full = new UserAgentParser();
  // Fresh strings, held by the cache alone, so their memory counts.
  for (let i = 0; i < DEFAULT_USER_AGENT_CACHE_SIZE; i++)
    full.parse(`${USER_AGENTS[i % USER_AGENTS.length]!} Full/${i}`);
  gc();
  line(
    `  a full cache (${full.stats.size.toLocaleString('en')} User-Agents of ~${unique[0]!.length} characters): ` +
      `heap +${mb(process.memoryUsage().heapUsed - heapBefore)}`,
  );

  line('other parts, CPU per call:');
  line(
    `  referrerSource: ${us(cpuPerCall(200_000, (i) => referrerSource(REFERRERS[i % REFERRERS.length], 'example.com')))}`,
  );
  line(`  utmFrom, no utm_: ${us(cpuPerCall(200_000, () => utmFrom('/docs/getting-started?tab=2')))}`);
  line(
    `  utmFrom, with UTM: ${us(cpuPerCall(200_000, () => utmFrom('/p?utm_source=Newsletter&utm_medium=email&utm_campaign=Spring+Sale')))}`,
  );

  const hits: RawDimensionInputs[] = Array.from({ length: 10_000 }, (_, i) => ({
    referrer: REFERRERS[i % REFERRERS.length],
    userAgent: USER_AGENTS[Math.floor(random() * USER_AGENTS.length)],
    clientIp: i % 3 === 0 ? v6[i] : v4[i],
    pageUrl: i % 10 === 0 ? 'https://example.com/?utm_source=news&utm_medium=email' : 'https://example.com/docs',
  }));
  const context: DimensionContext = { siteHost: 'example.com', userAgents: new UserAgentParser(), countries };
  line('deriveDimensions, all dimensions of one hit, CPU per hit:');
  line(
    `  User-Agent cached: ${us(cpuPerCall(100_000, (i) => deriveDimensions(hits[i % hits.length]!, undefined, context)))}`,
  );
  const coldContext: DimensionContext = { ...context, userAgents: new UserAgentParser(1_000) };
  let m = 0;
  line(
    `  User-Agent never seen: ${us(
      cpuPerCall(4_000, (i) =>
        deriveDimensions({ ...hits[i % hits.length]!, userAgent: unique[m++ % unique.length] }, undefined, coldContext),
      ),
    )}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
