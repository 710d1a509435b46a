// Checks of tally's projection pushdown patch to internal/backends/sqlite (PATCH_TAG tally9): a query with
// TallyProjection returns `_id` and the projected paths of each stored document, and a query without it the whole
// documents. Copied into a patched copy of FerretDB's source and run by `node scripts/ensure-ferretdb.js --test-patches`.

package sqlite

import (
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/must"
	"github.com/FerretDB/FerretDB/internal/util/state"
	"github.com/FerretDB/FerretDB/internal/util/testutil"
)

func TestTallyQueryProjection(t *testing.T) {
	t.Parallel()

	ctx := testutil.Ctx(t)

	sp, err := state.NewProvider("")
	require.NoError(t, err)

	coll := tallyOpen(t, testutil.TestSQLiteURI(t, ""), sp)

	doc := func(pairs ...any) *types.Document { return must.NotFail(types.NewDocument(pairs...)) }
	stored := []*types.Document{
		doc("_id", "a", "metadata", doc("site", "s"), "daily", int32(3),
			"d", doc("browser", doc("x", int32(1)), "source", doc("google", int32(2), "bing", int32(1))),
			"v", doc("1", int32(7))),
		doc("_id", "b", "d", doc("browser", doc("x", int32(1))), "metadata", doc("site", "t")),
		doc("_id", "c", "d", must.NotFail(types.NewArray(doc("source", int32(1)))), "v", "x"),
	}

	_, err = coll.InsertAll(ctx, &backends.InsertAllParams{Docs: stored})
	require.NoError(t, err)

	filter := doc("_id", doc("$in", must.NotFail(types.NewArray("a", "b", "c"))))
	query := func(paths []string) []*types.Document {
		return tallyQuery(t, coll, &backends.QueryParams{Filter: filter, TallyProjection: paths})
	}

	testutil.AssertEqualSlices(t, stored, query(nil))

	testutil.AssertEqualSlices(t, []*types.Document{
		doc("_id", "a", "metadata", doc("site", "s"), "d", doc("source", doc("google", int32(2), "bing", int32(1)))),
		doc("_id", "b", "d", doc(), "metadata", doc("site", "t")),
		doc("_id", "c", "d", must.NotFail(types.NewArray(doc("source", int32(1))))),
	}, query([]string{"metadata", "d.source"}))

	testutil.AssertEqualSlices(t, []*types.Document{
		doc("_id", "a", "v", doc("1", int32(7))), doc("_id", "b"), doc("_id", "c", "v", "x"),
	}, query([]string{"v"}))

	// paths that collide decode whole documents
	testutil.AssertEqualSlices(t, stored, query([]string{"d", "d.source"}))
}

// Patch 23 (PATCH_TAG tally21): a schema longer than a reference, once written often enough, is stored once per
// database and documents refer to it; they read back the same, after a restart too, beside documents written inline.
// Not parallel: it sets the share threshold and replaces the process's schema store to play a restart.
func TestTallyStoredSchemas(t *testing.T) {
	ctx := testutil.Ctx(t)

	tallySetShareAfter(t, 2)

	sp, err := state.NewProvider("")
	require.NoError(t, err)

	uri := testutil.TestSQLiteURI(t, "")
	coll := tallyOpen(t, uri, sp)

	doc := func(pairs ...any) *types.Document { return must.NotFail(types.NewDocument(pairs...)) }
	minute := func(id string, n int32) *types.Document {
		return doc("_id", id, "metadata", doc("site", "s", "page", "/p", "date", time.UnixMilli(1_700_000_000_000).UTC()),
			"minute", n, "seconds", doc("1", n, "2", int32(1)), "v", doc("9", int32(7)))
	}
	small := doc("_id", "z", "n", int32(1))

	_, err = coll.InsertAll(ctx, &backends.InsertAllParams{Docs: []*types.Document{minute("a", 1), minute("b", 2), small}})
	require.NoError(t, err)

	// The stored rows, read with SQL from the database's file (created by the first write).
	u, err := url.Parse(uri)
	require.NoError(t, err)
	raw, err := sql.Open("sqlite", filepath.Join(u.Opaque, testutil.DatabaseName(t)+".sqlite"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = raw.Close() })

	rowsOf := func(q string) []string {
		rows, err := raw.QueryContext(ctx, q)
		require.NoError(t, err)
		defer rows.Close()

		var res []string

		for rows.Next() {
			var s string
			require.NoError(t, rows.Scan(&s))
			res = append(res, s)
		}

		require.NoError(t, rows.Err())

		return res
	}
	var table string
	require.NoError(t, raw.QueryRowContext(ctx, `SELECT table_name FROM _ferretdb_collections`).Scan(&table))
	stored := func() []string {
		return rowsOf(fmt.Sprintf(`SELECT _ferretdb_sjson FROM %q ORDER BY _ferretdb_sjson->'$._id'`, table))
	}

	// The long schema's first write keeps it inline, its second stores it and refers to it; the short one stays inline.
	schemas := rowsOf(`SELECT schema FROM _ferretdb_tally_schemas`)
	require.Len(t, schemas, 1)
	rows := stored()
	require.Len(t, rows, 3)
	require.True(t, strings.HasPrefix(rows[0], `{"$s":`), rows[0])
	require.True(t, strings.HasPrefix(rows[1], tallySchemaRef), rows[1])
	require.NotContains(t, rows[1], `"metadata":{"t":"object"`)
	require.True(t, strings.HasPrefix(rows[2], `{"$s":`), rows[2])

	// What sjson would have written inline, with the schema in place of the reference.
	inline, err := sjson.MarshalTally(minute("b", 2))
	require.NoError(t, err)
	require.Equal(t, string(inline), `{"$s":`+schemas[0]+rows[1][len(tallySchemaRef)+tallySchemaIDLen+1:])
	require.Less(t, len(rows[1]), len(inline))

	// An update of a stored schema refers to it at once; a document written inline by an earlier build reads as is.
	_, err = coll.UpdateAll(ctx, &backends.UpdateAllParams{Docs: []*types.Document{minute("a", 1), minute("b", 5)}})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(stored()[0], tallySchemaRef))
	legacy, err := sjson.MarshalTally(minute("c", 3))
	require.NoError(t, err)
	_, err = raw.ExecContext(ctx, fmt.Sprintf(`INSERT INTO %q (_ferretdb_sjson) VALUES (?)`, table), string(legacy))
	require.NoError(t, err)
	require.Len(t, rowsOf(`SELECT schema FROM _ferretdb_tally_schemas`), 1)

	// In their natural order: an update keeps a document's place.
	want := []*types.Document{minute("a", 1), minute("b", 5), small, minute("c", 3)}
	query := func(c backends.Collection) []*types.Document { return tallyQuery(t, c, &backends.QueryParams{}) }
	testutil.AssertEqualSlices(t, want, query(coll))

	// A failed insert (a duplicate _id after a new schema's second write) stores no schema row, and the next write of
	// that schema stores it.
	other := func(id string) *types.Document {
		return doc("_id", id, "other", doc("x", "y", "long enough to share", "yes"), "more", int32(2))
	}
	_, err = coll.InsertAll(ctx, &backends.InsertAllParams{Docs: []*types.Document{other("d"), other("a")}})
	require.Error(t, err)
	require.Len(t, rowsOf(`SELECT schema FROM _ferretdb_tally_schemas`), 1)
	_, err = coll.InsertAll(ctx, &backends.InsertAllParams{Docs: []*types.Document{other("d")}})
	require.NoError(t, err)
	require.Len(t, rowsOf(`SELECT schema FROM _ferretdb_tally_schemas`), 2)
	require.True(t, strings.HasPrefix(stored()[3], tallySchemaRef)) // "d", in _id order

	// A restart: a process that knows no schema reads them from the database's table.
	saved := tallySchemas
	tallySchemas = newTallySchemaStore()
	t.Cleanup(func() { tallySchemas = saved })
	testutil.AssertEqualSlices(t, append(want, other("d")), query(tallyOpen(t, uri, sp)))

	// A reference to a schema the database does not hold fails the read, never decodes as something else.
	_, err = raw.ExecContext(ctx, fmt.Sprintf(`INSERT INTO %q (_ferretdb_sjson) VALUES (?)`, table),
		tallySchemaRef+"AAAAAAAAAAAAAAAA"+`","_id":"e"}`)
	require.NoError(t, err)
	res, err := coll.Query(ctx, &backends.QueryParams{})
	require.NoError(t, err)
	_, err = iterator.ConsumeValues(res.Iter)
	require.ErrorContains(t, err, "not found")
}

// tallyQuery returns the documents a query finds, without their record ids.
func tallyQuery(t *testing.T, coll backends.Collection, params *backends.QueryParams) []*types.Document {
	t.Helper()

	res, err := coll.Query(testutil.Ctx(t), params)
	require.NoError(t, err)

	docs, err := iterator.ConsumeValues(res.Iter)
	require.NoError(t, err)

	for _, d := range docs {
		d.SetRecordID(0)
	}

	return docs
}

// tallyOpen opens the test's collection on a new backend for uri.
func tallyOpen(t *testing.T, uri string, sp *state.Provider) backends.Collection {
	t.Helper()

	coll, err := tallyDatabase(t, uri, sp).Collection(testutil.CollectionName(t))
	require.NoError(t, err)

	return coll
}

// tallyDatabase opens the test's database on a new backend for uri.
func tallyDatabase(t *testing.T, uri string, sp *state.Provider) backends.Database {
	t.Helper()

	b, err := NewBackend(&NewBackendParams{URI: uri, L: testutil.Logger(t), P: sp, BatchSize: 100})
	require.NoError(t, err)
	t.Cleanup(b.Close)

	db, err := b.Database(testutil.DatabaseName(t))
	require.NoError(t, err)

	return db
}

// Patch 23: writes to two collections of one database at once, each storing new schemas, never fail with "database
// is locked": a transaction's first statement is a write (a read first, then a write, could not wait for the lock).
func TestTallyStoredSchemasConcurrentWriters(t *testing.T) {
	ctx := testutil.Ctx(t)

	tallySetShareAfter(t, 1)

	sp, err := state.NewProvider("")
	require.NoError(t, err)

	db := tallyDatabase(t, testutil.TestSQLiteURI(t, ""), sp)

	const writes = 150

	var wg sync.WaitGroup
	errs := make(chan error, 2*writes)

	for c := 0; c < 2; c++ {
		coll, err := db.Collection(fmt.Sprintf("%s_%d", testutil.CollectionName(t), c))
		require.NoError(t, err)

		wg.Add(1)

		go func() {
			defer wg.Done()

			for i := 0; i < writes; i++ {
				// A field name of its own per write: every write stores a new schema.
				d := must.NotFail(types.NewDocument("_id", int32(i), fmt.Sprintf("field_%d_%d", c, i),
					must.NotFail(types.NewDocument("a long enough nested key", "value"))))
				if _, err := coll.InsertAll(ctx, &backends.InsertAllParams{Docs: []*types.Document{d}}); err != nil {
					errs <- err
				}
			}
		}()
	}

	wg.Wait()
	close(errs)

	for err := range errs {
		require.NoError(t, err)
	}
}

// tallySetShareAfter sets the writes that store a schema for the test, and restores the threshold after it.
func tallySetShareAfter(t *testing.T, writes int) {
	t.Helper()

	saved := tallyShareAfter
	tallyShareAfter = writes
	t.Cleanup(func() { tallyShareAfter = saved })
}
