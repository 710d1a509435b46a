// Checks of tally's patches to internal/handler/msg_update.go (PATCH_TAG tally13, tally15): an unordered update
// command inserts its upserts' documents together and writes its updates' documents together, and stores exactly what
// the same command stores ordered, where every document is written at once. Copied into a patched copy of FerretDB's source and run by
// `node scripts/ensure-ferretdb.js --test-patches`.

package handler

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/backends/sqlite"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/must"
	"github.com/FerretDB/FerretDB/internal/util/state"
	"github.com/FerretDB/FerretDB/internal/util/testutil"
)

func TestTallyUnorderedUpsertsStoreWhatOrderedOnesStore(t *testing.T) {
	t.Parallel()

	doc := func(pairs ...any) *types.Document { return must.NotFail(types.NewDocument(pairs...)) }
	inc := func(n int32) *types.Document { return doc("$inc", doc("n", n)) }
	upsert := func(filter, update *types.Document) *types.Document {
		return doc("q", filter, "u", update, "upsert", true)
	}

	for name, c := range map[string]struct {
		existing []*types.Document
		updates  []*types.Document
		fails    string
	}{
		// New documents, then an update of one of them and an upsert by another field.
		"new": {
			updates: []*types.Document{
				upsert(doc("_id", "a"), inc(1)),
				upsert(doc("_id", "b"), inc(2)),
				doc("q", doc("_id", "a"), "u", inc(10)),
				upsert(doc("_id", "c", "w", doc("$exists", false)), doc("$set", doc("w", "v1"))),
				upsert(doc("k", "x"), doc("$set", doc("_id", "d", "n", int32(4)))),
				doc("q", doc("k", "x"), "u", inc(40)),
				upsert(doc("_id", "e"), inc(5)),
				upsert(doc("_id", "e"), inc(50)),
			},
		},
		// Existing documents beside new ones.
		"existing": {
			existing: []*types.Document{doc("_id", "a", "n", int32(1)), doc("_id", "c", "w", "v0")},
			updates: []*types.Document{
				upsert(doc("_id", "b"), inc(2)),
				upsert(doc("_id", "a"), inc(1)),
				upsert(doc("_id", "c", "w", "v0"), doc("$set", doc("w", "v1"))),
				upsert(doc("_id", "d"), inc(4)),
			},
		},
		// Updates of existing documents, held and written together: a second update of a held `_id`, an update by
		// another field and an upsert of a held `_id` each see the writes before them.
		"updates": {
			existing: []*types.Document{
				doc("_id", "a", "n", int32(1)), doc("_id", "b", "n", int32(2), "k", "x"), doc("_id", "c", "w", "v0"),
				doc("_id", "d", "n", int32(4)),
			},
			updates: []*types.Document{
				doc("q", doc("_id", "a"), "u", inc(1)),
				doc("q", doc("_id", "b"), "u", inc(2)),
				doc("q", doc("_id", "a"), "u", inc(10)),
				doc("q", doc("k", "x"), "u", inc(20), "multi", true),
				upsert(doc("_id", "c", "w", "v0"), doc("$set", doc("w", "v1"))),
				upsert(doc("_id", "c", "w", "v1"), doc("$set", doc("w", "v2"))),
				doc("q", doc("_id", "d", "n", int32(99)), "u", inc(100)),
				doc("q", doc("_id", "d"), "u", doc("$set", doc("n", int32(4)))),
				upsert(doc("_id", "b"), inc(200)),
				doc("q", doc("_id", "e"), "u", inc(1)),
				doc("q", doc("_id", "a"), "u", inc(100), "multi", true),
			},
		},
		// A compare-and-set that loses fails the command, and the upserts before it are stored.
		"lost": {
			existing: []*types.Document{doc("_id", "c", "w", "v9")},
			updates: []*types.Document{
				upsert(doc("_id", "a"), inc(1)),
				upsert(doc("_id", "c", "w", "v0"), doc("$set", doc("w", "v1"))),
				upsert(doc("_id", "d"), inc(4)),
			},
			fails: "E11000",
		},
		// An update the server refuses fails the command, and the updates and upserts before it are stored.
		"refused": {
			existing: []*types.Document{doc("_id", "b", "n", int32(1)), doc("_id", "y", "n", int32(1))},
			updates: []*types.Document{
				upsert(doc("_id", "a"), inc(1)),
				doc("q", doc("_id", "y"), "u", inc(1)),
				doc("q", doc("_id", "b"), "u", doc("$inc", doc("n", "x"))),
				upsert(doc("_id", "c"), inc(3)),
			},
			fails: "Cannot increment with non-numeric argument",
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			stored := map[bool]string{}
			for _, ordered := range []bool{true, false} {
				h, b := tallyHandler(t)
				ctx := testutil.Ctx(t)
				dbName, collName := "tally", fmt.Sprintf("c%v", ordered)

				db, err := b.Database(dbName)
				require.NoError(t, err)
				coll, err := db.Collection(collName)
				require.NoError(t, err)

				if len(c.existing) > 0 {
					_, err = coll.InsertAll(ctx, &backends.InsertAllParams{Docs: c.existing})
					require.NoError(t, err)
				}

				updates := must.NotFail(types.NewArray())
				for _, u := range c.updates {
					updates.Append(u)
				}

				msg := must.NotFail(documentOpMsg(doc(
					"update", collName, "updates", updates, "ordered", ordered, "$db", dbName,
				)))
				_, err = h.MsgUpdate(ctx, msg)
				if c.fails != "" {
					require.Error(t, err)
					require.Contains(t, err.Error(), c.fails)
				} else {
					require.NoError(t, err)
				}

				docs := storedDocs(t, coll)

				lines := make([]string, len(docs))
				for i, d := range docs {
					d.SetRecordID(0)
					lines[i] = types.FormatAnyValue(d)
				}
				stored[ordered] = strings.Join(lines, "\n")
			}

			require.NotEmpty(t, stored[true])
			require.Equal(t, stored[true], stored[false])
		})
	}
}

// storedDocs reads every document of coll.
func storedDocs(t *testing.T, coll backends.Collection) []*types.Document {
	t.Helper()

	res, err := coll.Query(testutil.Ctx(t), &backends.QueryParams{})
	require.NoError(t, err)
	docs, err := iterator.ConsumeValues(res.Iter)
	require.NoError(t, err)

	return docs
}

func tallyHandler(t *testing.T) (*Handler, backends.Backend) {
	t.Helper()

	sp, err := state.NewProvider("")
	require.NoError(t, err)

	b, err := sqlite.NewBackend(&sqlite.NewBackendParams{
		URI: testutil.TestSQLiteURI(t, ""), L: testutil.Logger(t), P: sp, BatchSize: 100,
	})
	require.NoError(t, err)

	h, err := New(&NewOpts{Backend: b, L: testutil.Logger(t), StateProvider: sp})
	require.NoError(t, err)
	t.Cleanup(func() {
		h.Close()
		b.Close()
	})

	return h, b
}

// An unordered command goes on past an upsert whose insert fails (MongoDB's unordered semantics, which stock FerretDB
// 1.24 does not follow: it stops at the first failing update whatever `ordered` says). The inserts held up to the
// failing one are stored, and the command fails.
func TestTallyUnorderedUpdatesGoOnPastAFailedUpsert(t *testing.T) {
	t.Parallel()

	doc := func(pairs ...any) *types.Document { return must.NotFail(types.NewDocument(pairs...)) }

	// Ordered, the command stops at the failing upsert as before: x is not updated.
	for ordered, x := range map[bool]string{false: `{ _id: "x", n: 2 }`, true: `{ _id: "x", n: 1 }`} {
		h, b := tallyHandler(t)
		ctx := testutil.Ctx(t)

		db, err := b.Database("tally")
		require.NoError(t, err)
		coll, err := db.Collection("c")
		require.NoError(t, err)
		_, err = coll.InsertAll(ctx, &backends.InsertAllParams{Docs: []*types.Document{
			doc("_id", "c", "w", "v9"), doc("_id", "x", "n", int32(1)),
		}})
		require.NoError(t, err)

		updates := must.NotFail(types.NewArray(
			doc("q", doc("_id", "a"), "u", doc("$inc", doc("n", int32(1))), "upsert", true),
			doc("q", doc("_id", "c", "w", "v0"), "u", doc("$set", doc("w", "v1")), "upsert", true),
			doc("q", doc("_id", "x"), "u", doc("$inc", doc("n", int32(1)))),
		))
		msg := must.NotFail(documentOpMsg(doc("update", "c", "updates", updates, "ordered", ordered, "$db", "tally")))
		_, err = h.MsgUpdate(ctx, msg)
		require.ErrorContains(t, err, "E11000")

		docs := storedDocs(t, coll)

		got := map[string]string{}
		for _, d := range docs {
			d.SetRecordID(0)
			got[must.NotFail(d.Get("_id")).(string)] = types.FormatAnyValue(d)
		}
		require.Equal(t, map[string]string{"a": `{ _id: "a", n: 1 }`, "c": `{ _id: "c", w: "v9" }`, "x": x}, got)
	}
}

// Commands from several connections that update the same documents at once lose no write (PATCH_TAG tally18): each
// collection's update, findAndModify and delete commands take turns. Without the turns every command reads the same
// version of a document and the last write wins, so two tally processes sharing one server lost increments.
func TestTallyConcurrentUpdatesLoseNoWrite(t *testing.T) {
	t.Parallel()

	doc := func(pairs ...any) *types.Document { return must.NotFail(types.NewDocument(pairs...)) }
	inc := doc("$inc", doc("n", int32(1)))

	h, b := tallyHandler(t)
	ctx := testutil.Ctx(t)

	const writers, rounds = 8, 40

	// The document the update by another field finds.
	db, err := b.Database("tally")
	require.NoError(t, err)
	coll, err := db.Collection("c")
	require.NoError(t, err)
	_, err = coll.InsertAll(ctx, &backends.InsertAllParams{Docs: []*types.Document{doc("_id", "k", "k", "x", "n", int32(0))}})
	require.NoError(t, err)

	var wg sync.WaitGroup
	errs := make(chan error, writers*rounds*2)

	for w := 0; w < writers; w++ {
		wg.Add(1)

		go func(w int) {
			defer wg.Done()

			for r := 0; r < rounds; r++ {
				// An unordered command (held writes) and an ordered one, as tally's flushes and ledger send them:
				// upserts of new and existing documents and an update by another field.
				updates := must.NotFail(types.NewArray(
					doc("q", doc("_id", "a"), "u", inc, "upsert", true),
					doc("q", doc("_id", fmt.Sprintf("w%d", r%4)), "u", inc, "upsert", true),
					doc("q", doc("k", "x"), "u", inc, "multi", true),
				))
				msg := must.NotFail(documentOpMsg(doc(
					"update", "c", "updates", updates, "ordered", w%2 == 0, "$db", "tally",
				)))
				if _, err := h.MsgUpdate(ctx, msg); err != nil {
					errs <- err
				}

				msg = must.NotFail(documentOpMsg(doc(
					"findAndModify", "c", "query", doc("_id", "f"), "update", inc, "upsert", true, "$db", "tally",
				)))
				if _, err := h.MsgFindAndModify(ctx, msg); err != nil {
					errs <- err
				}
			}
		}(w)
	}

	wg.Wait()
	close(errs)

	// Upserts of a new `_id` take turns too, so none finds the document missing after another inserted it (E11000).
	for err := range errs {
		require.NoError(t, err)
	}

	docs := storedDocs(t, coll)

	got := map[string]int32{}
	for _, d := range docs {
		got[must.NotFail(d.Get("_id")).(string)] = must.NotFail(d.Get("n")).(int32)
	}

	require.Equal(t, int32(writers*rounds), got["a"])
	require.Equal(t, int32(writers*rounds), got["f"])
	require.Equal(t, int32(writers*rounds/4), got["w0"])
	require.Equal(t, int32(writers*rounds/4), got["w3"])
	require.Equal(t, int32(writers*rounds), got["k"])
}
