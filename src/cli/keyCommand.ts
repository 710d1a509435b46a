/**
 * `tally key`: makes a new API key. Prints the secret (shown once, never stored) and the keys-file entry
 * holding only its SHA-256, ready to paste into TALLY_KEYS_FILE's "keys" list. With --site-key, makes a
 * public, ingest-only site key for the browser beacon instead.
 *
 *   tally key --name pipeline --scopes ingest [--sites example.com,shop.example]
 *   tally key --site-key --site example.com --origins https://example.com[,https://www.example.com] [--keep-query]
 */
import { createHash, randomBytes } from 'node:crypto';
import { parseKeys } from '../auth/parseKeys';

const USAGE = `usage:
  tally key --name NAME --scopes ingest,read,admin [--sites SITE,...]
  tally key --site-key --site SITE --origins ORIGIN,... [--keep-query]
`;

/** `tally key --help` (or -h): what `tally --help` promises every command answers. */
export const KEY_HELP = `Usage: tally key --name NAME --scopes SCOPES [--sites SITES]
       tally key --site-key --site SITE --origins ORIGINS [--keep-query]

Makes a new API key: prints its secret once (it is never stored) and the entry to add to TALLY_KEYS_FILE, which
holds only the secret's SHA-256. Send the secret as "Authorization: Bearer <secret>".

Secret key:
  --name NAME           1 to 64 letters, digits, ".", "_" or "-"; logged with each request (never the secret)
  --scopes SCOPES       comma-separated: ingest, read, admin
  --sites SITES         comma-separated sites the key may use (default: every site)

Site key (public, for the browser beacon; it may only record hits for its site):
  --site-key            make a site key instead of a secret key
  --site SITE           the one site it records hits for
  --origins ORIGINS     comma-separated origins allowed to send them (https://example.com)
  --keep-query          keep the page's query string (dropped by default)

  -h, --help            this help

Exit codes: 0 made, 2 usage error.
`;

export async function runKeyCommand(
  args: string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    out.write(KEY_HELP);
    return 0;
  }
  const options = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      err.write(`tally key: unexpected argument ${JSON.stringify(arg)}\n${USAGE}`);
      return 2;
    }
    const next = args[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      options.set(arg.slice(2), next);
      i++;
    } else options.set(arg.slice(2), true);
  }
  const list = (name: string): string[] | undefined => {
    const value = options.get(name);
    return typeof value === 'string'
      ? value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
      : undefined;
  };
  let entry: Record<string, unknown>;
  let secret: string;
  let listName: 'keys' | 'siteKeys';
  if (options.get('site-key') === true) {
    secret = `pk_${randomBytes(18).toString('base64url')}`;
    listName = 'siteKeys';
    entry = {
      key: secret,
      site: options.get('site'),
      origins: list('origins') ?? [],
      ...(options.get('keep-query') === true ? { keepQuery: true } : {}),
    };
  } else {
    secret = `tally_sk_${randomBytes(32).toString('base64url')}`;
    listName = 'keys';
    const sites = list('sites');
    entry = {
      name: options.get('name'),
      sha256: createHash('sha256').update(secret).digest('hex'),
      scopes: list('scopes') ?? [],
      ...(sites ? { sites } : {}),
    };
  }
  try {
    // The same validation the server runs at start-up: what this prints, the server accepts.
    parseKeys(JSON.stringify({ [listName]: [entry] }), 'tally key');
  } catch (error) {
    // "tally key keys[0].scopes must be …" names the option that set the field: "--scopes must be …".
    const message = (error as Error).message.replace(/^tally key (keys|siteKeys)\[0\]\.(\w+)/, '--$2');
    err.write(`tally key: ${message}\n${USAGE}`);
    return 2;
  }
  out.write(
    listName === 'keys'
      ? `secret (shown once; send it as "Authorization: Bearer <secret>"):\n${secret}\n\nkeys-file entry (add it to "keys"):\n`
      : `site key (public: embed it in pages; it may only record hits for ${String(entry.site)}):\n${secret}\n\nkeys-file entry (add it to "siteKeys"):\n`,
  );
  out.write(`${JSON.stringify(entry, null, 2)}\n`);
  return 0;
}
