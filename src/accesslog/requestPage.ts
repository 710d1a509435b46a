/**
 * From a logged request target to the page tally counts: nginx's and Apache's `\xHH` escapes undone, an
 * absolute-form target (`GET http://host/path`) reduced to its path, the query string dropped unless kept,
 * then percent-decoded as UTF-8, so `/caf%C3%A9` and `/café` are one page.
 */

export type PageResult = { ok: true; page: string } | { ok: false; reason: string };

/** Splits `$request` (`GET /path HTTP/1.1`, or HTTP/0.9's `GET /path`) into method and target. */
export function splitRequestLine(request: string): { method: string; target: string } | undefined {
  const space = request.indexOf(' ');
  if (space <= 0) return undefined;
  const last = request.lastIndexOf(' ');
  const target =
    last > space && request.startsWith('HTTP/', last + 1) ? request.slice(space + 1, last) : request.slice(space + 1);
  if (target.length === 0 || target.includes(' ')) return undefined;
  return { method: request.slice(0, space), target };
}

export function requestPage(target: string, keepQuery: boolean, args?: string): PageResult {
  let raw = target.includes('\\') ? unescapeLogged(target) : target;
  if (raw.charCodeAt(0) !== 47) {
    const scheme = raw.indexOf('://');
    if (scheme <= 0) return { ok: false, reason: `request target is not a path: ${shorten(raw)}` };
    const slash = raw.indexOf('/', scheme + 3);
    raw = slash < 0 ? '/' : raw.slice(slash);
  }
  const question = raw.indexOf('?');
  let path = question < 0 ? raw : raw.slice(0, question);
  const hash = path.indexOf('#');
  if (hash >= 0) path = path.slice(0, hash);
  let query = '';
  if (keepQuery) {
    if (question >= 0) query = raw.slice(question);
    else if (args !== undefined) query = `?${args.includes('\\') ? unescapeLogged(args) : args}`;
  }
  const text = utf8FromLatin1(path);
  const decoded = text === undefined ? undefined : percentDecode(text);
  const rawQuery = utf8FromLatin1(query);
  if (decoded === undefined || rawQuery === undefined) {
    return { ok: false, reason: `malformed UTF-8 or percent-encoding in ${shorten(path + query)}` };
  }
  // The query is kept as sent (still encoded): decoding it would merge `a=1%262` with `a=1&2`.
  return { ok: true, page: decoded + rawQuery };
}

/**
 * Lines are read as latin1 (one char per byte: fast, and lossless for any bytes); text that held raw
 * UTF-8 becomes UTF-8 again here, where it matters.
 */
export function utf8FromLatin1(text: string): string | undefined {
  let high = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    // Above 0xff the text is already decoded (it never came from latin1).
    if (code > 0xff) return text;
    if (code > 0x7f) high = true;
  }
  if (!high) return text;
  try {
    return STRICT_UTF8.decode(Buffer.from(text, 'latin1'));
  } catch {
    return undefined;
  }
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** `\xHH` → that byte, `\"` → `"`, `\\` → `\` (what nginx and Apache escape in logged values). */
export function unescapeLogged(text: string): string {
  return text.replace(/\\(x[0-9A-Fa-f]{2}|["\\])/g, (_, escape: string) =>
    escape.length === 3 ? String.fromCharCode(parseInt(escape.slice(1), 16)) : escape,
  );
}

function percentDecode(path: string): string | undefined {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

function shorten(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
