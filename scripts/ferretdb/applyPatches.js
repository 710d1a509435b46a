/**
 * Applies tally's FerretDB patch series (scripts/ferretdb/patches/NNNN-name.patch, in the order of their numbers) to
 * a copy of FerretDB's source. Each patch is a unified diff under a header (Subject, Since, Reason, Effect, Test).
 *
 * The check is exact: every hunk's context and removed lines must be the file's lines at the very line numbers the
 * hunk states. No offset, no fuzz, no whitespace leniency, so a changed upstream stops the build with the patch,
 * file, hunk and line that differ, and there is never a silently mispatched binary. Our own applier rather than
 * `patch` or `git apply`: those accept hunks at an offset by default, and neither is a dependency the install has
 * (it needs Go and Node only). Plain JavaScript because it runs before TypeScript is compiled.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const SERIES = path.join(__dirname, 'patches');
const NAME = /^\d{4}-[a-z0-9-]+\.patch$/;

/** The series' patch files, in order. */
function seriesFiles(dir = SERIES) {
  return fs
    .readdirSync(dir)
    .filter((name) => NAME.test(name))
    .sort()
    .map((name) => path.join(dir, name));
}

/** A unified diff's files and hunks; the header before the first `--- a/` line is skipped. */
function parsePatch(text, name) {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const files = [];
  let i = 0;
  const fail = (message) => {
    throw new Error(`${name}, line ${i + 1}: ${message}`);
  };
  while (i < lines.length && !(lines[i].startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ '))) i += 1;
  while (i < lines.length) {
    const from = /^--- (?:a\/(\S+)|\/dev\/null)/.exec(lines[i]);
    const to = /^\+\+\+ b\/(\S+)/.exec(lines[i + 1] ?? '');
    if (!from || !to) fail(`expected "--- a/FILE" and "+++ b/FILE", got ${JSON.stringify(lines[i])}`);
    const file = { path: to[1], created: from[1] === undefined, hunks: [] };
    if (!file.created && from[1] !== to[1]) fail(`renames are not supported: ${from[1]} -> ${to[1]}`);
    files.push(file);
    i += 2;
    while (i < lines.length && lines[i].startsWith('@@ ')) {
      const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(lines[i]);
      if (!header) fail(`malformed hunk header ${JSON.stringify(lines[i])}`);
      const hunk = {
        header: lines[i],
        oldStart: Number(header[1]),
        oldCount: header[2] === undefined ? 1 : Number(header[2]),
        newCount: header[4] === undefined ? 1 : Number(header[4]),
        old: [],
        new: [],
      };
      i += 1;
      while (i < lines.length && /^[ +\-\\]/.test(lines[i]) && !lines[i].startsWith('--- ')) {
        const [op, rest] = [lines[i][0], lines[i].slice(1)];
        if (op === '\\') fail('"\\ No newline at end of file" is not supported');
        if (op !== '+') hunk.old.push(rest);
        if (op !== '-') hunk.new.push(rest);
        i += 1;
      }
      if (hunk.old.length !== hunk.oldCount || hunk.new.length !== hunk.newCount) {
        fail(`hunk ${hunk.header} has ${hunk.old.length} old and ${hunk.new.length} new lines`);
      }
      file.hunks.push(hunk);
    }
    if (file.hunks.length === 0) fail(`no hunks for ${file.path}`);
  }
  if (files.length === 0) throw new Error(`${name}: no diff found`);
  return files;
}

/** Applies one patch to the tree at `src`, all or nothing: every file is checked before any is written. */
function applyPatch(src, patchFile) {
  const name = path.basename(patchFile);
  const results = parsePatch(fs.readFileSync(patchFile, 'utf8'), name).map((file) => {
    const target = path.join(src, file.path);
    if (file.created === fs.existsSync(target)) {
      throw new Error(`${name}: ${file.path} ${file.created ? 'already exists' : 'does not exist'}`);
    }
    const lines = file.created ? [] : fs.readFileSync(target, 'utf8').split('\n');
    // Earlier hunks of the same file move later ones by the lines they added or removed.
    let shift = 0;
    file.hunks.forEach((hunk, index) => {
      const at = (hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1) + shift;
      hunk.old.forEach((expected, k) => {
        if (lines[at + k] !== expected) {
          throw new Error(
            `${name}: hunk ${index + 1} of ${file.path} (${hunk.header}) does not apply exactly: line ${at + k + 1} ` +
              `is ${JSON.stringify(lines[at + k] ?? '(end of file)')}, the patch expects ${JSON.stringify(expected)}`,
          );
        }
      });
      lines.splice(at, hunk.old.length, ...hunk.new);
      shift += hunk.new.length - hunk.old.length;
    });
    return { target, text: file.created ? `${lines.join('\n')}\n` : lines.join('\n') };
  });
  for (const { target, text } of results) {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
  }
}

/** Applies the whole series in order; returns the names applied. */
function applySeries(src, dir = SERIES) {
  return seriesFiles(dir).map((file) => {
    applyPatch(src, file);
    return path.basename(file);
  });
}

module.exports = { applySeries, applyPatch, parsePatch, seriesFiles };
