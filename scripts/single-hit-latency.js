#!/usr/bin/env node
/**
 * `node scripts/single-hit-latency.js BEFORE_DIR [AFTER_DIR]`: recordHit latency with one client, side by side.
 * Starts the built server of each checkout (`dist/src/main.js`, run `npm run build` in each first) against its own
 * freshly started patched FerretDB, sends 500 sequential `recordHit`s to each in alternating rounds of 50, and prints
 * p50/p95 for each, plus one database round trip (a single upsert by the driver) on the same engine.
 * Plain JavaScript so it can drive any two checkouts (e.g. a `git worktree` of an older commit and this one).
 */
/* global setTimeout, Buffer */
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { target: FERRETDB } = require('./ensure-ferretdb.js');

const [beforeDir, afterDir = path.resolve(__dirname, '..')] = process.argv.slice(2);
if (!beforeDir) {
  process.stderr.write('usage: node scripts/single-hit-latency.js BEFORE_DIR [AFTER_DIR]\n');
  process.exit(2);
}
const ROUNDS = 10;
const PER_ROUND = 50;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

function ferretdb(port) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-latency-'));
  const args = [
    '--handler=sqlite',
    `--sqlite-url=file:${dir}/?_pragma=synchronous(normal)`,
    `--listen-addr=127.0.0.1:${port}`,
    '--telemetry=disable',
    '--state-dir=-',
    '--debug-addr=-',
  ];
  return spawn(FERRETDB, args, { stdio: 'ignore' });
}

function server(root, port, uri) {
  const env = { ...process.env, PORT: String(port), MONGODB_URI: uri, LOG_LEVEL: 'warn', RATE_LIMIT_PER_ADDRESS: '0' };
  return spawn(process.execPath, [path.join(root, 'dist', 'src', 'main.js')], { cwd: root, env, stdio: 'ignore' });
}

async function main() {
  const children = [ferretdb(47131), ferretdb(47132)];
  await sleep(1500);
  children.push(server(path.resolve(beforeDir), 47141, 'mongodb://127.0.0.1:47131/'));
  children.push(server(path.resolve(afterDir), 47142, 'mongodb://127.0.0.1:47132/'));
  await sleep(8000);
  const body = JSON.stringify({ query: 'mutation { recordHit(site: "latency.example", page: "/p") { count } }' });
  // node:http with keep-alive, as the benchmark's load generator: fetch (undici) costs the client a millisecond
  // of CPU per request on this VM, which would be measured as server latency.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const post = (port) =>
    new Promise((resolve, reject) => {
      const request = http.request(
        {
          agent,
          host: '127.0.0.1',
          port,
          path: '/graphql',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve(text));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  const hit = async (port) => {
    const started = process.hrtime.bigint();
    const reply = JSON.parse(await post(port));
    if (reply.errors) throw new Error(JSON.stringify(reply.errors));
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const client = new MongoClient('mongodb://127.0.0.1:47131/', { maxPoolSize: 1 });
  const collection = client.db('latency').collection('c');
  const roundTrip = async () => {
    const started = process.hrtime.bigint();
    await collection.updateOne({ _id: 'x' }, { $inc: { n: 1 } }, { upsert: true });
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const results = { before: [], after: [], 'round trip': [] };
  try {
    for (let i = 0; i < 20; i++) await Promise.all([hit(47141), hit(47142), roundTrip()]);
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < PER_ROUND; i++) results.before.push(await hit(47141));
      for (let i = 0; i < PER_ROUND; i++) results.after.push(await hit(47142));
      for (let i = 0; i < PER_ROUND; i++) results['round trip'].push(await roundTrip());
    }
    for (const [name, xs] of Object.entries(results)) {
      const line = `${name.padEnd(10)} p50 ${percentile(xs, 0.5).toFixed(2)} ms  p95 ${percentile(xs, 0.95).toFixed(2)} ms`;
      process.stdout.write(`${line}  (n=${xs.length})\n`);
    }
  } finally {
    await client.close();
    agent.destroy();
    children.forEach((child) => child.kill('SIGTERM'));
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
