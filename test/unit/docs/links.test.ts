/**
 * The documentation hangs together: every page in docs/ is reachable from the README, and every relative link in
 * the README and in docs/*.md names a file that exists and, with a `#fragment`, a heading in it (GitHub's anchors).
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const DOCS = path.join(ROOT, 'docs');
const PAGES = [
  'README.md',
  ...fs
    .readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** The lines of a page outside fenced code blocks, where links and headings can be. */
function outsideFences(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else return !fenced;
    return false;
  });
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of a page, with GitHub's -1, -2 … suffixes for repeated headings. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of outsideFences(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = anchorOf(heading[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Relative link targets of a page (`[text](target)` and images), without web and mail addresses. */
function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const line of outsideFences(markdown)) {
    // Inline code (`[a](b)` in a code span) is not a link.
    for (const match of line.replace(/`[^`]*`/g, '').matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] as string;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
    }
  }
  return links;
}

const read = (page: string): string => fs.readFileSync(path.join(ROOT, page), 'utf8');

describe('anchorOf', () => {
  it.each([
    ['A first mutation and query', 'a-first-mutation-and-query'],
    ['Stopping, and when the database fails', 'stopping-and-when-the-database-fails'],
    ['2. Ingest (FerretDB 1.24.2-tally6 patched)', '2-ingest-ferretdb-1242-tally6-patched'],
    ['The suite: `npm run bench`', 'the-suite-npm-run-bench'],
    ['Writes: group commit', 'writes-group-commit'],
  ])('turns the heading %j into the anchor %j, as GitHub does', (heading, anchor) => {
    expect(anchorOf(heading)).toBe(anchor);
  });
});

describe('the documentation', () => {
  it('links every page in docs/ from the README', () => {
    const linked = new Set(relativeLinks(read('README.md')).map((target) => target.split('#')[0]));
    const unlinked = PAGES.filter((page) => page !== 'README.md' && !linked.has(page));
    expect(unlinked).toEqual([]);
  });

  it.each(PAGES)('resolves every relative link in %s to a file and heading that exist', (page) => {
    const broken: string[] = [];
    for (const target of relativeLinks(read(page))) {
      const [file, fragment] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      if (!fs.existsSync(path.join(ROOT, resolved))) broken.push(`${target}: no file ${resolved}`);
      else if (fragment !== undefined && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(fragment))
        broken.push(`${target}: no heading with the anchor #${fragment} in ${resolved}`);
    }
    expect(broken).toEqual([]);
  });
});
