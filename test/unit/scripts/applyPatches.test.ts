import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPatch, applySeries, parsePatch, seriesFiles } from '../../../scripts/ferretdb/applyPatches.js';

const ORIGINAL = [
  'package a',
  '',
  'func one() int {',
  '\treturn 1',
  '}',
  '',
  'func two() int {',
  '\treturn 2',
  '}',
  '',
];

const PATCH = `Subject: two returns 22
Reason: a test.

--- a/a.go
+++ b/a.go
@@ -6,4 +6,4 @@
 
 func two() int {
-\treturn 2
+\treturn 22
 }
`;

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-apply-patches-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'a.go'), ORIGINAL.join('\n'));
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function patchFile(text: string, name = '0001-test.patch'): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const read = (file: string): string => fs.readFileSync(path.join(dir, 'src', file), 'utf8');

describe('applyPatch', () => {
  it('applies a hunk whose lines are the file lines at the stated line numbers', () => {
    applyPatch(path.join(dir, 'src'), patchFile(PATCH));
    expect(read('a.go')).toBe(ORIGINAL.join('\n').replace('return 2', 'return 22'));
  });

  it('refuses a hunk whose context differs, naming the patch, file, hunk and line', () => {
    fs.writeFileSync(path.join(dir, 'src', 'a.go'), ORIGINAL.join('\n').replace('func two', 'func Two'));
    expect(() => applyPatch(path.join(dir, 'src'), patchFile(PATCH))).toThrow(
      '0001-test.patch: hunk 1 of a.go (@@ -6,4 +6,4 @@) does not apply exactly: line 7 is "func Two() int {", ' +
        'the patch expects "func two() int {"',
    );
  });

  it('refuses the same text at another line (no offset, unlike patch and git apply)', () => {
    fs.writeFileSync(path.join(dir, 'src', 'a.go'), ['// moved down', ...ORIGINAL].join('\n'));
    expect(() => applyPatch(path.join(dir, 'src'), patchFile(PATCH))).toThrow(
      'does not apply exactly: line 6 is "}", the patch expects ""',
    );
  });

  it('writes nothing when a later file of the patch does not apply', () => {
    fs.writeFileSync(path.join(dir, 'src', 'b.go'), 'package b\n');
    const both = `${PATCH}--- a/b.go\n+++ b/b.go\n@@ -1 +1 @@\n-package c\n+package d\n`;
    expect(() => applyPatch(path.join(dir, 'src'), patchFile(both))).toThrow(/hunk 1 of b\.go/);
    expect(read('a.go')).toBe(ORIGINAL.join('\n'));
  });

  it('creates a new file and applies later hunks shifted by earlier ones', () => {
    const text = `--- /dev/null\n+++ b/c.go\n@@ -0,0 +1,2 @@\n+package a\n+\n--- a/a.go\n+++ b/a.go\n@@ -2,0 +3,1 @@\n+// one\n@@ -7,3 +8,3 @@\n func two() int {\n-\treturn 2\n+\treturn 22\n }\n`;
    applyPatch(path.join(dir, 'src'), patchFile(text));
    expect(read('c.go')).toBe('package a\n\n');
    expect(read('a.go').split('\n').slice(2, 10)).toEqual([
      '// one',
      'func one() int {',
      '\treturn 1',
      '}',
      '',
      'func two() int {',
      '\treturn 22',
      '}',
    ]);
  });

  it('refuses a hunk whose line counts differ from its header', () => {
    expect(() =>
      applyPatch(path.join(dir, 'src'), patchFile(PATCH.replace('@@ -6,4 +6,4 @@', '@@ -6,5 +6,4 @@'))),
    ).toThrow(/has 4 old and 4 new lines/);
  });
});

describe('the FerretDB patch series', () => {
  const files = seriesFiles();

  it('is numbered from 0001 without gaps', () => {
    expect(files.map((file) => path.basename(file).slice(0, 4))).toEqual(
      files.map((_file, index) => String(index + 1).padStart(4, '0')),
    );
    expect(files.length).toBeGreaterThanOrEqual(11);
  });

  it.each(seriesFiles().map((file) => [path.basename(file), file]))(
    '%s is a unified diff headed by its subject, build, reason, measured effect and test',
    (name, file) => {
      const text = fs.readFileSync(file, 'utf8');
      const header = text.slice(0, text.indexOf('\n--- a/'));
      for (const field of ['Subject', 'Since', 'Reason', 'Effect', 'Test']) {
        expect(header).toMatch(new RegExp(`^${field}: \\S`, 'm'));
      }
      expect(parsePatch(text, name).length).toBeGreaterThan(0);
    },
  );

  it('applySeries stops at the first patch that does not apply to a tree that is not FerretDB 1.24.2', () => {
    expect(() => applySeries(path.join(dir, 'src'))).toThrow(/^0001-[a-z-]+\.patch: /);
  });
});
