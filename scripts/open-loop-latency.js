#!/usr/bin/env node
/**
 * `node scripts/open-loop-latency.js URL [SECONDS=45] [RATE=120] [KEYED_PERCENT=10]`: recordHit latency of a running
 * server under an open-loop load (each latency runs from when its request was due), for requests with and without an
 * idempotency key apart. Visitors from 20,000 ids, 1,000 pages (skewed), a referrer and a User-Agent on each hit.
 * Point it at two servers in turn (e.g. a `git worktree` of an older commit on another PORT) to compare them side by
 * side; prints numbers only.
 */
/* global performance, setInterval, clearInterval */
'use strict';
const http = require('node:http');

const [url, seconds = '45', rate = '120', keyedPercent = '10'] = process.argv.slice(2);
if (!url) {
  process.stderr.write('usage: node scripts/open-loop-latency.js URL [SECONDS] [RATE] [KEYED_PERCENT]\n');
  process.exit(2);
}
const QUERY =
  'mutation Hit($site: String!, $page: String!, $visitor: String, $key: String, $referrer: String, $userAgent: String) ' +
  '{ recordHit(site: $site, page: $page, visitor: $visitor, referrer: $referrer, userAgent: $userAgent, idempotencyKey: $key) { count } }';
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const agent = new http.Agent({ keepAlive: true, maxSockets: 1_000 });
const latencies = { unkeyed: [], keyed: [] };
let errors = 0;

function post(body) {
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (r) => {
        let text = '';
        r.on('data', (chunk) => (text += chunk));
        r.on('end', () => resolve(text));
      },
    );
    request.on('error', (error) => resolve(`error: ${error.message}`));
    request.end(body);
  });
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? '-' : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1);
}

const total = Number(seconds) * Number(rate);
const run = Date.now();
const start = performance.now();
const pending = [];
let sent = 0;
const timer = setInterval(() => {
  const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * Number(rate)));
  for (; sent < due; sent++) {
    const keyed = sent % 100 < Number(keyedPercent);
    const dueAt = start + (sent * 1000) / Number(rate);
    const variables = {
      site: 'latency.example',
      page: `/p${Math.floor(Math.random() ** 3 * 1_000)}`,
      visitor: `v${Math.floor(Math.random() * 20_000)}`,
      referrer: 'https://news.example.org/x',
      userAgent: USER_AGENT,
      ...(keyed ? { key: `k-${run}-${sent}` } : {}),
    };
    pending.push(
      post(JSON.stringify({ query: QUERY, variables })).then((text) => {
        if (!text.includes('"count"')) errors += 1;
        (keyed ? latencies.keyed : latencies.unkeyed).push(performance.now() - dueAt);
      }),
    );
  }
  if (sent < total) return;
  clearInterval(timer);
  void Promise.all(pending).then(() => {
    for (const kind of ['unkeyed', 'keyed']) {
      const values = latencies[kind];
      process.stdout.write(
        `${kind}: n ${values.length}, p50 ${percentile(values, 0.5)} ms, p90 ${percentile(values, 0.9)} ms, ` +
          `p99 ${percentile(values, 0.99)} ms, max ${percentile(values, 1)} ms\n`,
      );
    }
    process.stdout.write(`errors: ${errors}\n`);
    agent.destroy();
  });
}, 5);
