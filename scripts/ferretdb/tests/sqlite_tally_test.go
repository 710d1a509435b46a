// Checks of tally's projection pushdown patch to internal/backends/sqlite (PATCH_TAG tally9): a query with
// TallyProjection returns `_id` and the projected paths of each stored document, and a query without it the whole
// documents. Copied into a patched copy of FerretDB's source and run by `node scripts/ensure-ferretdb.js --test-patches`.

package sqlite

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/FerretDB/FerretDB/internal/backends"
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

	b, err := NewBackend(&NewBackendParams{URI: testutil.TestSQLiteURI(t, ""), L: testutil.Logger(t), P: sp, BatchSize: 100})
	require.NoError(t, err)
	t.Cleanup(b.Close)

	db, err := b.Database(testutil.DatabaseName(t))
	require.NoError(t, err)

	coll, err := db.Collection(testutil.CollectionName(t))
	require.NoError(t, err)

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
		res, err := coll.Query(ctx, &backends.QueryParams{Filter: filter, TallyProjection: paths})
		require.NoError(t, err)

		docs, err := iterator.ConsumeValues(res.Iter)
		require.NoError(t, err)

		for _, d := range docs {
			d.SetRecordID(0)
		}

		return docs
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
