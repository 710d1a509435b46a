#!/usr/bin/env node
/**
 * Builds FerretDB 1.24.2 (SQLite backend) from the Go module proxy into .tools/ once, and prints its path.
 * Used by `npm install` (postinstall, --if-needed) and by the embedded-database launcher.
 * Plain JavaScript because it runs before TypeScript is compiled.
 *
 * Why not `go install …@v1.24.2`: the module lacks the generated build/version/version.txt and the binary
 * panics at start-up, so we build from the downloaded module source with that file added.
 *
 * The build applies PATCHES (below) to that source. Each names the file, the exact text it replaces and why; a
 * patch whose text is not found exactly as often as it expects stops the build, so a changed upstream can never give a silently
 * unpatched binary. `--stock` builds the unpatched server into its own folder (the benchmarks compare both).
 */
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const VERSION = 'v1.24.2';
const MODULE = 'github.com/FerretDB/FerretDB';
const root = path.resolve(__dirname, '..');
/**
 * FerretDB 1.24's SQLite backend looks documents up by `_id` with the SQL expression `_ferretdb_sjson->'$._id'`,
 * but creates its unique `_id` index on `_ferretdb_sjson->"_id"`. SQLite uses an expression index only for the
 * identical expression, so every find, update and delete by `_id` scanned the whole table (EXPLAIN QUERY PLAN:
 * `SCAN` before, `SEARCH … USING INDEX` after). Both expressions extract the same value.
 */
const PATCHES = [
  {
    file: 'internal/backends/sqlite/metadata/metadata.go',
    find: `IDColumn = DefaultColumn + "->'$._id'"`,
    replace: 'IDColumn = DefaultColumn + `->"_id"`',
  },
  /**
   * Only a filter that is exactly `{_id: <string or ObjectID>}` was pushed down to SQL; `{_id, metadata.site,
   * metadata.page}` (the shard-key-targeted write filter) decoded every row. Every caller (find, update, delete,
   * count, findAndModify, explain) applies the whole filter again to what the backend returns, so narrowing the
   * SQL by `_id` whenever the filter has an exact `_id` is safe. Two places: Query and Explain.
   */
  {
    file: 'internal/backends/sqlite/collection.go',
    find: 'if params.Filter.Len() == 1 {\n\t\tv, _ := params.Filter.Get("_id")',
    replace: 'if params.Filter.Len() >= 1 {\n\t\tv, _ := params.Filter.Get("_id")',
    count: 2,
  },
  /**
   * The update command defers closing each update's read iterator (`defer` inside its loop), so every statement's
   * SQLite read transaction stays open until the whole command ends. With 100 updates the pool's 100 connections
   * are all held and the command waits forever (tally chunked bulk writes into commands of 90 because of it), and
   * the open read transactions keep the write-ahead log from being checkpointed while a command runs. Close each
   * update's iterator as soon as that update is done.
   */
  {
    file: 'internal/handler/msg_update.go',
    find: [
      '\t\tcloser := iterator.NewMultiCloser()',
      '\t\tdefer closer.Close()',
      '',
      '\t\tcloser.Add(res.Iter)',
      '',
      '\t\titer := common.FilterIterator(res.Iter, closer, u.Filter)',
      '',
      '\t\tif !u.Multi {',
      '\t\t\titer = common.LimitIterator(iter, closer, 1)',
      '\t\t}',
      '',
      '\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)',
      '',
    ].join('\n'),
    replace: [
      '\t\tcloser := iterator.NewMultiCloser()',
      '',
      '\t\tcloser.Add(res.Iter)',
      '',
      '\t\titer := common.FilterIterator(res.Iter, closer, u.Filter)',
      '',
      '\t\tif !u.Multi {',
      '\t\t\titer = common.LimitIterator(iter, closer, 1)',
      '\t\t}',
      '',
      '\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)',
      '\t\tcloser.Close()',
      '',
    ].join('\n'),
  },
  /**
   * A lookup by `_id` returns at most one row, but its SQLite read transaction stayed open until the caller closed
   * the iterator, which an update does only after writing. Every write therefore committed beside an open reader,
   * so SQLite could never reset the write-ahead log: it grew by every page ever written (1.7 GB after 100,000
   * hits) and each commit's checkpoint got slower. Release the row's connection as soon as the row is read.
   */
  {
    file: 'internal/backends/sqlite/collection.go',
    find: 'Iter: newQueryIterator(ctx, rows, params.OnlyRecordIDs),',
    // A point lookup is the `_id = ?` form only (`_id IN (…)`, below, returns several rows).
    replace: 'Iter: newPointQueryIterator(ctx, rows, params.OnlyRecordIDs, strings.HasSuffix(whereClause, " = ?")),',
  },
  {
    file: 'internal/backends/sqlite/query_iterator.go',
    find: '\tonlyRecordIDs bool\n}',
    replace: '\tonlyRecordIDs bool\n\tpoint         bool\n}',
  },
  {
    file: 'internal/backends/sqlite/query_iterator.go',
    find: '\tdoc.SetRecordID(recordID)\n',
    replace: '\tdoc.SetRecordID(recordID)\n\n\tif iter.point {\n\t\titer.close()\n\t}\n',
  },
  {
    file: 'internal/backends/sqlite/query_iterator.go',
    find: '// Close implements iterator.Interface.',
    replace: [
      '// newPointQueryIterator is newQueryIterator for a lookup by unique _id (tally patch): the row is the only one,',
      '// so its connection is released once it is read.',
      'func newPointQueryIterator(ctx context.Context, rows *fsql.Rows, onlyRecordIDs, point bool) types.DocumentsIterator {',
      '\titer := newQueryIterator(ctx, rows, onlyRecordIDs).(*queryIterator)',
      '\titer.point = point',
      '',
      '\treturn iter',
      '}',
      '',
      '// Close implements iterator.Interface.',
    ].join('\n'),
  },
  /**
   * `{_id: {$in: [...]}}` decoded every row. Push a list of string or ObjectID ids down as `_id IN (…)` (the
   * caller applies the whole filter again), so reading a dashboard's documents by id is one indexed query.
   */
  {
    file: 'internal/backends/sqlite/collection.go',
    find: [
      '\t\tcase string, types.ObjectID:',
      '\t\t\twhereClause = fmt.Sprintf(` WHERE %s = ?`, metadata.IDColumn)',
      '\t\t\targs = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}',
      '\t\t}',
    ].join('\n'),
    replace: [
      '\t\tcase string, types.ObjectID:',
      '\t\t\twhereClause = fmt.Sprintf(` WHERE %s = ?`, metadata.IDColumn)',
      '\t\t\targs = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}',
      '\t\tcase *types.Document:',
      '\t\t\twhereClause, args = tallyIDInClause(v.(*types.Document))',
      '\t\t}',
    ].join('\n'),
  },
  {
    file: 'internal/backends/sqlite/collection.go',
    find: '// check interfaces',
    replace: [
      '// tallyIDInClause pushes {_id: {$in: [strings or ObjectIDs]}} down to SQL (tally patch); "" when it cannot.',
      'func tallyIDInClause(d *types.Document) (string, []any) {',
      '\tif d.Len() != 1 {',
      '\t\treturn "", nil',
      '\t}',
      '',
      '\tin, err := d.Get("$in")',
      '\tif err != nil {',
      '\t\treturn "", nil',
      '\t}',
      '',
      '\tarr, ok := in.(*types.Array)',
      '\tif !ok || arr.Len() == 0 || arr.Len() > 10000 {',
      '\t\treturn "", nil',
      '\t}',
      '',
      '\targs := make([]any, 0, arr.Len())',
      '',
      '\tfor i := 0; i < arr.Len(); i++ {',
      '\t\te := must.NotFail(arr.Get(i))',
      '',
      '\t\tswitch e.(type) {',
      '\t\tcase string, types.ObjectID:',
      '\t\t\targs = append(args, string(must.NotFail(sjson.MarshalSingleValue(e))))',
      '\t\tdefault:',
      '\t\t\treturn "", nil',
      '\t\t}',
      '\t}',
      '',
      '\treturn fmt.Sprintf(` WHERE %s IN (?%s)`, metadata.IDColumn, strings.Repeat(", ?", len(args)-1)), args',
      '}',
      '',
      '// check interfaces',
    ].join('\n'),
  },
  /**
   * A document's `Set` scanned every field for the key before appending it, although the document keeps a map of its
   * keys: decoding a stored document (sjson.Unmarshal builds it with Set, field by field) was quadratic in its number
   * of fields. A visitor sketch holds one field per register (up to 2,048 in a page's day, 8,192 in a site's): reading
   * twenty 2,000-field documents spent 36 % of FerretDB's CPU in this scan, and a 50-register `$bit` update of an
   * 8,000-field document took 412 ms. Scan only when the map says the key exists; `Get` answers a missing key from the
   * map too (every `$bit`/`$inc` on a new register asks).
   */
  {
    file: 'internal/types/document.go',
    find: [
      '\tfor i, f := range d.fields {',
      '\t\tif f.key == key {',
      '\t\t\td.fields[i].value = value',
      '\t\t\treturn',
      '\t\t}',
      '\t}',
    ].join('\n'),
    replace: [
      '\tif d.keys[key] != 0 {',
      '\t\tfor i, f := range d.fields {',
      '\t\t\tif f.key == key {',
      '\t\t\t\td.fields[i].value = value',
      '\t\t\t\treturn',
      '\t\t\t}',
      '\t\t}',
      '\t}',
    ].join('\n'),
  },
  {
    file: 'internal/types/document.go',
    find: [
      '\t\tpanic(fmt.Sprintf("types.Document.Get: key is duplicated: %s", key))',
      '\t}',
      '',
      '\tfor _, field := range d.fields {',
    ].join('\n'),
    replace: [
      '\t\tpanic(fmt.Sprintf("types.Document.Get: key is duplicated: %s", key))',
      '\t}',
      '',
      '\tif d.keys[key] == 0 {',
      '\t\treturn nil, fmt.Errorf("types.Document.Get: key not found: %q", key)',
      '\t}',
      '',
      '\tfor _, field := range d.fields {',
    ].join('\n'),
  },
  /**
   * Every stored int32 and int64 was decoded with a new json.Decoder (15.8 % of CPU reading sketch documents, most of
   * the rest of the JSON cost in allocations). A stored integer is plain JSON number text: parse it with strconv, and
   * fall back to the decoder for anything else.
   */
  {
    file: 'internal/handler/sjson/int32.go',
    find: ['\tr := bytes.NewReader(data)', '\tdec := json.NewDecoder(r)', '', '\tvar o int32'].join('\n'),
    replace: [
      '\tif n, err := strconv.ParseInt(string(data), 10, 32); err == nil {',
      '\t\t*i = int32Type(n)',
      '\t\treturn nil',
      '\t}',
      '',
      '\tr := bytes.NewReader(data)',
      '\tdec := json.NewDecoder(r)',
      '',
      '\tvar o int32',
    ].join('\n'),
  },
  {
    file: 'internal/handler/sjson/int32.go',
    find: '\t"encoding/json"\n',
    replace: '\t"encoding/json"\n\t"strconv"\n',
  },
  {
    file: 'internal/handler/sjson/int64.go',
    find: [
      '\tr := bytes.NewReader(data)',
      '\tdec := json.NewDecoder(r)',
      '\tdec.DisallowUnknownFields()',
      '',
      '\tvar o int64',
    ].join('\n'),
    replace: [
      '\tif n, err := strconv.ParseInt(string(data), 10, 64); err == nil {',
      '\t\t*i = int64Type(n)',
      '\t\treturn nil',
      '\t}',
      '',
      '\tr := bytes.NewReader(data)',
      '\tdec := json.NewDecoder(r)',
      '\tdec.DisallowUnknownFields()',
      '',
      '\tvar o int64',
    ].join('\n'),
  },
  {
    file: 'internal/handler/sjson/int64.go',
    find: '\t"encoding/json"\n',
    replace: '\t"encoding/json"\n\t"strconv"\n',
  },
  /**
   * Encoding a document for storage (every update writes the whole document back) walked its keys and looked each
   * value up with `Get`, a scan: quadratic in the number of fields, 70 % of FerretDB's CPU for `$bit` updates of a
   * 4,000-register sketch. Keys and values come in the same order: take the value by position.
   */
  {
    file: 'internal/handler/sjson/document.go',
    find: '\tkeys := td.Keys()\n',
    replace: '\tkeys := td.Keys()\n\tvalues := td.Values()\n',
  },
  {
    file: 'internal/handler/sjson/document.go',
    find: [
      '\t\tvalue, err := td.Get(key)',
      '\t\tif err != nil {',
      '\t\t\treturn nil, lazyerrors.Error(err)',
      '\t\t}',
    ].join('\n'),
    replace: '\t\tvalue := values[i]',
  },
  {
    file: 'internal/handler/sjson/schema.go',
    find: '\tkeys := td.Keys()\n',
    replace: '\tkeys := td.Keys()\n\tvalues := td.Values()\n',
  },
  {
    file: 'internal/handler/sjson/schema.go',
    find: '\t\tb, err = marshalElemForSingleValue(must.NotFail(td.Get(key)))',
    replace: '\t\tb, err = marshalElemForSingleValue(values[i])',
  },
];
/** Changes whenever PATCHES change, so a stale build is never reused. */
const PATCH_TAG = 'tally7';
const stock = process.argv.includes('--stock');
const target = path.join(root, '.tools', `ferretdb-${VERSION}${stock ? '' : `-${PATCH_TAG}`}`, 'ferretdb');

function applyPatches(src) {
  for (const patch of PATCHES) {
    const file = path.join(src, patch.file);
    const text = fs.readFileSync(file, 'utf8');
    const count = text.split(patch.find).length - 1;
    const expected = patch.count ?? 1;
    if (count !== expected) {
      throw new Error(`patch for ${patch.file} expected its text ${expected} times, found it ${count}: ${patch.find}`);
    }
    fs.writeFileSync(file, text.split(patch.find).join(patch.replace));
  }
}

function onPath(command) {
  const dirs = (process.env.PATH || '').split(path.delimiter);
  return dirs.some((dir) => dir && fs.existsSync(path.join(dir, command)));
}

function build() {
  const env = { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' };
  const info = JSON.parse(
    execFileSync('go', ['mod', 'download', '-json', `${MODULE}@${VERSION}`], { env, encoding: 'utf8' }),
  );
  if (!info.Dir) throw new Error(`go mod download gave no directory: ${info.Error || 'unknown error'}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-ferretdb-'));
  try {
    const src = path.join(work, 'src');
    fs.cpSync(info.Dir, src, { recursive: true });
    fs.chmodSync(src, 0o755);
    for (const entry of fs.readdirSync(src, { recursive: true })) {
      const file = path.join(src, entry);
      fs.chmodSync(file, fs.statSync(file).isDirectory() ? 0o755 : 0o644);
    }
    // The patch tag in the version lets tally tell its patched build from a stock FerretDB (EngineInfo).
    fs.writeFileSync(path.join(src, 'build', 'version', 'version.txt'), stock ? VERSION : `${VERSION}-${PATCH_TAG}`);
    if (!stock) applyPatches(src);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    execFileSync('go', ['build', '-o', partial, './cmd/ferretdb'], {
      cwd: src,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function main() {
  const ifNeeded = process.argv.includes('--if-needed');
  if (fs.existsSync(target)) {
    process.stdout.write(`${target}\n`);
    return;
  }
  if (ifNeeded && (process.env.MONGODB_URI || onPath('mongod'))) {
    process.stderr.write('tally: a MongoDB server is available; skipping the FerretDB build\n');
    return;
  }
  if (!onPath('go')) {
    const message =
      'tally: Go is not installed, so the embedded FerretDB cannot be built; set MONGODB_URI or install mongod';
    if (ifNeeded) {
      process.stderr.write(`${message}\n`);
      return;
    }
    throw new Error(message);
  }
  process.stderr.write(
    `tally: building FerretDB ${VERSION}${stock ? ' (stock)' : ` (patched: ${PATCH_TAG})`} into ${path.relative(root, target)} (first run only, about 2 minutes)\n`,
  );
  build();
  process.stdout.write(`${target}\n`);
}

module.exports = { target, VERSION, PATCH_TAG };

if (require.main === module) {
  try {
    main();
  } catch (error) {
    process.stderr.write(`tally: FerretDB build failed: ${error.message}\n`);
    process.exit(process.argv.includes('--if-needed') ? 0 : 1);
  }
}
