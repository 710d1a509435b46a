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
  /**
   * Reading a stored document decoded its JSON with encoding/json into a map[string]json.RawMessage per object
   * (reflection), and nested objects were scanned again at every level; its schema, as large as the document (one
   * `{"t":"int"}` per field), went the same way: 63 % of FerretDB's CPU reading documents of a few hundred fields.
   * These functions split objects, arrays and schemas by scanning bytes, accept only what sjson writes (every key in
   * the schema's order, no duplicates, plain elements) and give up otherwise, so the original decoding then runs and
   * gives its original result or error.
   */
  {
    file: 'internal/handler/sjson/document.go',
    find: ['// check interfaces', 'var (', '\t_ sjsontype = (*documentType)(nil)', ')'].join('\n'),
    replace: [
      '// tallyMember is one member of a JSON object: its key as written (quoted) and its raw value (tally patch).',
      'type tallyMember struct {',
      '\trawKey []byte',
      '\tvalue  []byte',
      '}',
      '',
      "// key is the member's key, decoded.",
      'func (m tallyMember) key() (string, bool) {',
      '\treturn tallyString(m.rawKey)',
      '}',
      '',
      "// is reports whether the member's key is key, without allocating for a plain key.",
      'func (m tallyMember) is(key string) bool {',
      '\tif raw := m.rawKey; len(raw) >= 2 && tallyPlain(raw[1:len(raw)-1]) {',
      '\t\treturn string(raw[1:len(raw)-1]) == key',
      '\t}',
      '',
      '\tdecoded, ok := m.key()',
      '',
      '\treturn ok && decoded == key',
      '}',
      '',
      "// tallyPlain reports whether a string's bytes need no decoding: ASCII without escapes or quotes.",
      'func tallyPlain(b []byte) bool {',
      '\tfor _, c := range b {',
      "\t\tif c == '\\\\' || c == '\"' || c < 0x20 || c >= 0x80 {",
      '\t\t\treturn false',
      '\t\t}',
      '\t}',
      '',
      '\treturn true',
      '}',
      '',
      "// The functions below split stored JSON into members and items without encoding/json's reflection, which decoded",
      "// every object into a map[string]json.RawMessage and re-scanned nested objects at every level (63 % of FerretDB's",
      '// CPU reading documents of a few hundred fields). They accept only what sjson itself writes; anything else makes',
      '// them give up, and the caller decodes the original way, with the original result or error (tally patch).',
      '',
      'func tallySkipSpace(data []byte, i int) int {',
      '\tfor i < len(data) {',
      '\t\tswitch data[i] {',
      "\t\tcase ' ', '\\t', '\\n', '\\r':",
      '\t\t\ti++',
      '\t\tdefault:',
      '\t\t\treturn i',
      '\t\t}',
      '\t}',
      '',
      '\treturn i',
      '}',
      '',
      '// tallyScanString returns the index after the string that starts at data[i] (a quote), or -1.',
      'func tallyScanString(data []byte, i int) int {',
      '\tfor j := i + 1; j < len(data); j++ {',
      '\t\tswitch c := data[j]; {',
      "\t\tcase c == '\\\\':",
      '\t\t\tj++',
      "\t\tcase c == '\"':",
      '\t\t\treturn j + 1',
      '\t\tcase c < 0x20:',
      '\t\t\treturn -1',
      '\t\t}',
      '\t}',
      '',
      '\treturn -1',
      '}',
      '',
      '// tallyScanValue returns the index after the JSON value that starts at data[i], or -1.',
      'func tallyScanValue(data []byte, i int) int {',
      '\tif i >= len(data) {',
      '\t\treturn -1',
      '\t}',
      '',
      '\tswitch data[i] {',
      "\tcase '\"':",
      '\t\treturn tallyScanString(data, i)',
      "\tcase '{', '[':",
      '\t\tdepth := 0',
      '\t\tfor j := i; j < len(data); j++ {',
      '\t\t\tswitch data[j] {',
      "\t\t\tcase '\"':",
      '\t\t\t\tend := tallyScanString(data, j)',
      '\t\t\t\tif end < 0 {',
      '\t\t\t\t\treturn -1',
      '\t\t\t\t}',
      '\t\t\t\tj = end - 1',
      "\t\t\tcase '{', '[':",
      '\t\t\t\tdepth++',
      "\t\t\tcase '}', ']':",
      '\t\t\t\tdepth--',
      '\t\t\t\tif depth == 0 {',
      '\t\t\t\t\treturn j + 1',
      '\t\t\t\t}',
      '\t\t\t}',
      '\t\t}',
      '',
      '\t\treturn -1',
      '\t}',
      '',
      '\tj := i',
      '\tfor j < len(data) {',
      '\t\tswitch data[j] {',
      "\t\tcase ',', '}', ']', ' ', '\\t', '\\n', '\\r':",
      '\t\t\tif j == i {',
      '\t\t\t\treturn -1',
      '\t\t\t}',
      '',
      '\t\t\treturn j',
      '\t\t}',
      '\t\tj++',
      '\t}',
      '',
      '\treturn j',
      '}',
      '',
      '// tallyString decodes a JSON string; plain ASCII without escapes is taken as it is.',
      'func tallyString(data []byte) (string, bool) {',
      "\tif len(data) < 2 || data[0] != '\"' || data[len(data)-1] != '\"' {",
      '\t\treturn "", false',
      '\t}',
      '',
      '\tif tallyPlain(data[1 : len(data)-1]) {',
      '\t\treturn string(data[1 : len(data)-1]), true',
      '\t}',
      '',
      '\tvar s string',
      '\tif err := json.Unmarshal(data, &s); err != nil {',
      '\t\treturn "", false',
      '\t}',
      '',
      '\treturn s, true',
      '}',
      '',
      '// tallyMembers splits a JSON object into its members, in order.',
      'func tallyMembers(data []byte) ([]tallyMember, bool) {',
      '\treturn tallyMembersHint(data, 0)',
      '}',
      '',
      '// tallyMembersHint is tallyMembers with room for `hint` members from the start.',
      'func tallyMembersHint(data []byte, hint int) ([]tallyMember, bool) {',
      '\ti := tallySkipSpace(data, 0)',
      "\tif i >= len(data) || data[i] != '{' {",
      '\t\treturn nil, false',
      '\t}',
      '',
      '\ti = tallySkipSpace(data, i+1)',
      "\tif i < len(data) && data[i] == '}' {",
      '\t\treturn []tallyMember{}, tallySkipSpace(data, i+1) == len(data)',
      '\t}',
      '',
      '\tmembers := make([]tallyMember, 0, hint)',
      '',
      '\tfor {',
      "\t\tif i >= len(data) || data[i] != '\"' {",
      '\t\t\treturn nil, false',
      '\t\t}',
      '',
      '\t\tend := tallyScanString(data, i)',
      '\t\tif end < 0 {',
      '\t\t\treturn nil, false',
      '\t\t}',
      '',
      '\t\trawKey := data[i:end]',
      '',
      '\t\ti = tallySkipSpace(data, end)',
      "\t\tif i >= len(data) || data[i] != ':' {",
      '\t\t\treturn nil, false',
      '\t\t}',
      '',
      '\t\ti = tallySkipSpace(data, i+1)',
      '\t\tstart := i',
      '',
      '\t\tif i = tallyScanValue(data, i); i < 0 {',
      '\t\t\treturn nil, false',
      '\t\t}',
      '',
      '\t\tmembers = append(members, tallyMember{rawKey: rawKey, value: data[start:i]})',
      '',
      '\t\ti = tallySkipSpace(data, i)',
      '\t\tif i >= len(data) {',
      '\t\t\treturn nil, false',
      '\t\t}',
      '',
      '\t\tswitch data[i] {',
      "\t\tcase ',':",
      '\t\t\ti = tallySkipSpace(data, i+1)',
      "\t\tcase '}':",
      '\t\t\treturn members, tallySkipSpace(data, i+1) == len(data)',
      '\t\tdefault:',
      '\t\t\treturn nil, false',
      '\t\t}',
      '\t}',
      '}',
      '',
      '// tallyItems splits a JSON array into its items, in order.',
      'func tallyItems(data []byte) ([][]byte, bool) {',
      '\ti := tallySkipSpace(data, 0)',
      "\tif i >= len(data) || data[i] != '[' {",
      '\t\treturn nil, false',
      '\t}',
      '',
      '\ti = tallySkipSpace(data, i+1)',
      '\titems := [][]byte{}',
      '',
      "\tif i < len(data) && data[i] == ']' {",
      '\t\treturn items, tallySkipSpace(data, i+1) == len(data)',
      '\t}',
      '',
      '\tfor {',
      '\t\tstart := i',
      '',
      '\t\tif i = tallyScanValue(data, i); i < 0 {',
      '\t\t\treturn nil, false',
      '\t\t}',
      '',
      '\t\titems = append(items, data[start:i])',
      '',
      '\t\ti = tallySkipSpace(data, i)',
      '\t\tif i >= len(data) {',
      '\t\t\treturn nil, false',
      '\t\t}',
      '',
      '\t\tswitch data[i] {',
      "\t\tcase ',':",
      '\t\t\ti = tallySkipSpace(data, i+1)',
      "\t\tcase ']':",
      '\t\t\treturn items, tallySkipSpace(data, i+1) == len(data)',
      '\t\tdefault:',
      '\t\t\treturn nil, false',
      '\t\t}',
      '\t}',
      '}',
      '',
      '// tallySchema decodes a document\'s schema: {"p": {key: elem, …}, "$k": [key, …]}. Keys listed in the same order',
      '// in both share one string.',
      'func tallySchema(data []byte) (*schema, bool) {',
      '\tmembers, ok := tallyMembers(data)',
      '\tif !ok {',
      '\t\treturn nil, false',
      '\t}',
      '',
      '\tsch := new(schema)',
      '',
      '\tvar props []tallyMember',
      '',
      '\tvar propKeys []string',
      '',
      '\tfor _, m := range members {',
      '\t\tswitch {',
      '\t\tcase m.is("p"):',
      '\t\t\tif props != nil {',
      '\t\t\t\treturn nil, false',
      '\t\t\t}',
      '',
      '\t\t\t// A property takes at least 15 bytes (`"k":{"t":"int"},`).',
      '\t\t\tif props, ok = tallyMembersHint(m.value, len(m.value)/15+1); !ok {',
      '\t\t\t\treturn nil, false',
      '\t\t\t}',
      '',
      '\t\t\tsch.Properties = make(map[string]*elem, len(props))',
      '\t\t\tpropKeys = make([]string, len(props))',
      '',
      '\t\t\tfor j, p := range props {',
      '\t\t\t\tkey, ok := p.key()',
      '\t\t\t\tif !ok {',
      '\t\t\t\t\treturn nil, false',
      '\t\t\t\t}',
      '',
      '\t\t\t\tif _, dup := sch.Properties[key]; dup {',
      '\t\t\t\t\treturn nil, false',
      '\t\t\t\t}',
      '',
      '\t\t\t\te, ok := tallyElem(p.value)',
      '\t\t\t\tif !ok {',
      '\t\t\t\t\treturn nil, false',
      '\t\t\t\t}',
      '',
      '\t\t\t\tsch.Properties[key] = e',
      '\t\t\t\tpropKeys[j] = key',
      '\t\t\t}',
      '\t\tcase m.is("$k"):',
      '\t\t\titems, ok := tallyItems(m.value)',
      '\t\t\tif !ok || sch.Keys != nil {',
      '\t\t\t\treturn nil, false',
      '\t\t\t}',
      '',
      '\t\t\tsch.Keys = make([]string, len(items))',
      '',
      '\t\t\tfor j, item := range items {',
      '\t\t\t\tif j < len(propKeys) && len(item) >= 2 && tallyPlain(item[1:len(item)-1]) &&',
      '\t\t\t\t\tstring(item[1:len(item)-1]) == propKeys[j] {',
      '\t\t\t\t\tsch.Keys[j] = propKeys[j]',
      '\t\t\t\t\tcontinue',
      '\t\t\t\t}',
      '',
      '\t\t\t\tif sch.Keys[j], ok = tallyString(item); !ok {',
      '\t\t\t\t\treturn nil, false',
      '\t\t\t\t}',
      '\t\t\t}',
      '\t\tdefault:',
      '\t\t\treturn nil, false',
      '\t\t}',
      '\t}',
      '',
      '\treturn sch, true',
      '}',
      '',
      '// tallyScalarElems are the schema elements of scalar types, shared: decoding only reads them.',
      'var tallyScalarElems = func() map[string]*elem {',
      '\tm := make(map[string]*elem)',
      '\tfor _, t := range []elemType{',
      '\t\telemTypeDouble, elemTypeString, elemTypeObjectID, elemTypeBool, elemTypeDate,',
      '\t\telemTypeNull, elemTypeInt, elemTypeTimestamp, elemTypeLong,',
      '\t} {',
      '\t\tm[`{"t":"`+string(t)+`"}`] = &elem{Type: t}',
      '\t}',
      '',
      '\treturn m',
      '}()',
      '',
      '// tallyElem decodes one schema element: {"t": type} with "$s" for objects and "i" for arrays; others give up.',
      'func tallyElem(data []byte) (*elem, bool) {',
      '\tif e, ok := tallyScalarElems[string(data)]; ok {',
      '\t\treturn e, true',
      '\t}',
      '',
      '\tmembers, ok := tallyMembers(data)',
      '\tif !ok {',
      '\t\treturn nil, false',
      '\t}',
      '',
      '\te := new(elem)',
      '',
      '\tfor _, m := range members {',
      '\t\tswitch {',
      '\t\tcase m.is("t"):',
      '\t\t\tt, ok := tallyString(m.value)',
      '\t\t\tif !ok {',
      '\t\t\t\treturn nil, false',
      '\t\t\t}',
      '',
      '\t\t\te.Type = elemType(t)',
      '\t\tcase m.is("$s"):',
      '\t\t\ts, ok := tallySchema(m.value)',
      '\t\t\tif !ok {',
      '\t\t\t\treturn nil, false',
      '\t\t\t}',
      '',
      '\t\t\te.Schema = s',
      '\t\tcase m.is("i"):',
      '\t\t\titems, ok := tallyItems(m.value)',
      '\t\t\tif !ok {',
      '\t\t\t\treturn nil, false',
      '\t\t\t}',
      '',
      '\t\t\te.Items = make([]*elem, len(items))',
      '',
      '\t\t\tfor j, item := range items {',
      '\t\t\t\tif e.Items[j], ok = tallyElem(item); !ok {',
      '\t\t\t\t\treturn nil, false',
      '\t\t\t\t}',
      '\t\t\t}',
      '\t\tdefault:',
      '\t\t\treturn nil, false',
      '\t\t}',
      '\t}',
      '',
      '\treturn e, true',
      '}',
      '',
      "// tallyFromMembers builds a document from an object's members, which must be exactly the schema's keys in order,",
      '// each once (a key list longer than the property map repeats a key).',
      'func tallyFromMembers(members []tallyMember, sch *schema) (*types.Document, bool) {',
      '\tif sch == nil || len(sch.Keys) != len(members) || len(sch.Keys) != len(sch.Properties) {',
      '\t\treturn nil, false',
      '\t}',
      '',
      '\ttd := must.NotFail(types.NewDocument())',
      '',
      '\tfor i, key := range sch.Keys {',
      '\t\tif !members[i].is(key) {',
      '\t\t\treturn nil, false',
      '\t\t}',
      '',
      '\t\te := sch.Properties[key]',
      '',
      '\t\tif e != nil && e.Type == elemTypeInt {',
      '\t\t\tif n, ok := tallyInt32(members[i].value); ok {',
      '\t\t\t\ttd.Set(key, n)',
      '\t\t\t\tcontinue',
      '\t\t\t}',
      '\t\t}',
      '',
      '\t\tv, err := unmarshalSingleValue(members[i].value, e)',
      '\t\tif err != nil {',
      '\t\t\treturn nil, false',
      '\t\t}',
      '',
      '\t\ttd.Set(key, v)',
      '\t}',
      '',
      '\treturn td, true',
      '}',
      '',
      "// tallyInt32 parses a JSON integer in int32 range written as sjson writes it (no sign but '-', no leading zeros).",
      'func tallyInt32(b []byte) (int32, bool) {',
      "\tneg := len(b) > 0 && b[0] == '-'",
      '\tif neg {',
      '\t\tb = b[1:]',
      '\t}',
      '',
      "\tif len(b) == 0 || len(b) > 10 || (len(b) > 1 && b[0] == '0') {",
      '\t\treturn 0, false',
      '\t}',
      '',
      '\tvar n int64',
      '',
      '\tfor _, c := range b {',
      "\t\tif c < '0' || c > '9' {",
      '\t\t\treturn 0, false',
      '\t\t}',
      '',
      "\t\tn = n*10 + int64(c-'0')",
      '\t}',
      '',
      '\tif neg {',
      '\t\tn = -n',
      '\t}',
      '',
      '\tif n < -1<<31 || n > 1<<31-1 {',
      '\t\treturn 0, false',
      '\t}',
      '',
      '\treturn int32(n), true',
      '}',
      '',
      "// tallyDocument is documentType.UnmarshalJSONWithSchema's decoding without reflection; an empty object gives nil.",
      'func tallyDocument(data []byte, sch *schema) (*types.Document, bool) {',
      '\thint := 0',
      '\tif sch != nil {',
      '\t\thint = len(sch.Keys)',
      '\t}',
      '',
      '\tmembers, ok := tallyMembersHint(data, hint)',
      '\tif !ok {',
      '\t\treturn nil, false',
      '\t}',
      '',
      '\tif len(members) == 0 {',
      '\t\treturn nil, true',
      '\t}',
      '',
      '\treturn tallyFromMembers(members, sch)',
      '}',
      '',
      '// tallyUnmarshal is Unmarshal without reflection for a stored document: {"$s": schema, key: value, …}.',
      'func tallyUnmarshal(data []byte) (*types.Document, bool) {',
      '\tmembers, ok := tallyMembers(data)',
      '\tif !ok || len(members) == 0 || !members[0].is("$s") {',
      '\t\treturn nil, false',
      '\t}',
      '',
      '\tsch, ok := tallySchema(members[0].value)',
      '\tif !ok {',
      '\t\treturn nil, false',
      '\t}',
      '',
      '\treturn tallyFromMembers(members[1:], sch)',
      '}',
      '',
      '// check interfaces',
      'var (',
      '\t_ sjsontype = (*documentType)(nil)',
      ')',
    ].join('\n'),
  },
  {
    file: 'internal/handler/sjson/document.go',
    find: [
      'func (doc *documentType) UnmarshalJSONWithSchema(data []byte, sch *schema) error {',
      '\tif bytes.Equal(data, []byte("null")) {',
      '\t\tpanic("null data")',
      '\t}',
      '',
    ].join('\n'),
    replace: [
      'func (doc *documentType) UnmarshalJSONWithSchema(data []byte, sch *schema) error {',
      '\tif bytes.Equal(data, []byte("null")) {',
      '\t\tpanic("null data")',
      '\t}',
      '',
      '\tif td, ok := tallyDocument(data, sch); ok {',
      '\t\tif td == nil {',
      '\t\t\t*doc = documentType{}',
      '\t\t} else {',
      '\t\t\t*doc = documentType(*td)',
      '\t\t}',
      '',
      '\t\treturn nil',
      '\t}',
      '',
    ].join('\n'),
  },
  {
    file: 'internal/handler/sjson/sjson.go',
    find: ['func Unmarshal(data []byte) (*types.Document, error) {', '\tvar v map[string]json.RawMessage'].join('\n'),
    replace: [
      'func Unmarshal(data []byte) (*types.Document, error) {',
      '\tif d, ok := tallyUnmarshal(data); ok {',
      '\t\treturn d, nil',
      '\t}',
      '',
      '\tvar v map[string]json.RawMessage',
    ].join('\n'),
  },
];
/** Changes whenever PATCHES change, so a stale build is never reused. */
const PATCH_TAG = 'tally8';
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

/**
 * `--test-patches`: applies PATCHES to a copy of the module's source and runs FerretDB's own tests of the packages
 * they touch, with tally's randomized tests (scripts/ferretdb-patch-tests/) beside them. Needs Go and the module proxy.
 */
function testPatches() {
  const env = { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' };
  const info = JSON.parse(
    execFileSync('go', ['mod', 'download', '-json', `${MODULE}@${VERSION}`], { env, encoding: 'utf8' }),
  );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-ferretdb-test-'));
  try {
    const src = path.join(work, 'src');
    fs.cpSync(info.Dir, src, { recursive: true });
    for (const entry of fs.readdirSync(src, { recursive: true })) {
      const file = path.join(src, entry);
      fs.chmodSync(file, fs.statSync(file).isDirectory() ? 0o755 : 0o644);
    }
    applyPatches(src);
    fs.copyFileSync(
      path.join(__dirname, 'ferretdb-patch-tests', 'sjson_tally_test.go'),
      path.join(src, 'internal', 'handler', 'sjson', 'tally_test.go'),
    );
    // FerretDB's test helpers look for the repository root by its .git directory.
    fs.mkdirSync(path.join(src, '.git'));
    execFileSync('go', ['test', './internal/handler/sjson/', './internal/types/'], {
      cwd: src,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function main() {
  if (process.argv.includes('--test-patches')) {
    testPatches();
    return;
  }
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

module.exports = { target, VERSION, PATCH_TAG, PATCHES, applyPatches };

if (require.main === module) {
  try {
    main();
  } catch (error) {
    process.stderr.write(`tally: FerretDB build failed: ${error.message}\n`);
    process.exit(process.argv.includes('--if-needed') ? 0 : 1);
  }
}
