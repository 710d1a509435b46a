import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { KeyRing } from '../../../src/auth/KeyRing';
import { parseKeys } from '../../../src/auth/parseKeys';
import { runKeyCommand } from '../../../src/cli/keyCommand';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks: string[] = [];
  const errors: string[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  err.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  const code = await runKeyCommand(args, out, err);
  return { code, out: chunks.join(''), err: errors.join('') };
}

describe('tally key', () => {
  it('prints a new secret and a keys-file entry holding only its hash, which the server then accepts', async () => {
    const { code, out } = await run(['--name', 'pipeline', '--scopes', 'ingest,read', '--sites', 'example.com']);
    expect(code).toBe(0);
    const secret = /^(tally_sk_[A-Za-z0-9_-]{43})$/m.exec(out)?.[1];
    expect(secret).toBeDefined();
    const entry = JSON.parse(out.slice(out.indexOf('{'))) as Record<string, unknown>;
    expect(entry).toEqual({
      name: 'pipeline',
      sha256: createHash('sha256').update(secret!).digest('hex'),
      scopes: ['ingest', 'read'],
      sites: ['example.com'],
    });
    expect(JSON.stringify(entry)).not.toContain(secret);
    const ring = new KeyRing(parseKeys(JSON.stringify({ keys: [entry] }), 'test'));
    expect(ring.authenticate(`Bearer ${secret}`)).toMatchObject({ kind: 'key', name: 'pipeline' });
  });

  it('makes a site key for the beacon', async () => {
    const { code, out } = await run(['--site-key', '--site', 'example.com', '--origins', 'https://example.com']);
    expect(code).toBe(0);
    const entry = JSON.parse(out.slice(out.indexOf('{'))) as { key: string; site: string; origins: string[] };
    expect(entry.key).toMatch(/^pk_/);
    expect(entry).toMatchObject({ site: 'example.com', origins: ['https://example.com'] });
  });

  it('refuses an unknown scope with exit code 2', async () => {
    const { code, err } = await run(['--name', 'x', '--scopes', 'write']);
    expect(code).toBe(2);
    expect(err).toContain('tally key: --scopes must be each one of ingest, read, admin, got "write"\n');
  });
});
