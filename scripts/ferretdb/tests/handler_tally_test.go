// Checks of tally's projection pushdown patch to internal/handler/msg_find.go (PATCH_TAG tally9): which finds pass
// their projection's paths to the backend. Copied into a patched copy of FerretDB's source and run by
// `node scripts/ensure-ferretdb.js --test-patches`.

package handler

import (
	"fmt"
	"testing"

	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

func TestTallyProjectionPaths(t *testing.T) {
	doc := func(pairs ...any) *types.Document { return must.NotFail(types.NewDocument(pairs...)) }
	in := doc("$in", must.NotFail(types.NewArray("a", "b")))

	for i, c := range []struct {
		filter, sort, projection *types.Document
		want                     string
	}{
		{doc("_id", in), nil, doc("_id", int32(0), "metadata", int32(1), "d.source", int32(1)), "[metadata d.source]"},
		{doc("_id", "x"), nil, doc("metadata", true, "_id", false), "[metadata]"},
		{nil, nil, doc("a.b.c", float64(1), "x", int64(1)), "[a.b.c x]"},
		{doc("_id", in), doc("_id", int32(-1)), doc("_id", int32(1), "v", true), "[v]"},
		// the top-level fields the filter or sort reads are decoded whole (tally12), paths inside them dropped
		{doc("_id", in, "metadata.site", "s"), nil, doc("metadata", int32(1)), "[metadata]"},
		{
			doc("metadata.site", "s", "metadata.date", in), nil,
			doc("_id", int32(0), "metadata.page", int32(1), "metadata.date", int32(1), "daily", int32(1)),
			"[daily metadata]",
		},
		{doc("a.b", int32(1)), doc("c.d", int32(-1)), doc("a.b.c", int32(1), "x", int32(1)), "[x a c]"},
		{doc("_id", in), doc("daily", int32(1)), doc("metadata", int32(1)), "[metadata daily]"},
		{doc("_id", in), doc("_id", int32(1), "daily", int32(1)), doc("metadata", int32(1)), "[metadata daily]"},
		{doc("_id.x", int32(1)), nil, doc("v", int32(1)), "[v]"},
		// not pushed down: the filter or sort names an operator, or an empty field
		{doc("$comment", "c"), nil, doc("metadata", int32(1)), "[]"},
		{doc("$or", must.NotFail(types.NewArray(doc("a", int32(1))))), nil, doc("a", int32(1)), "[]"},
		{doc(".a", int32(1)), nil, doc("a", int32(1)), "[]"},
		{doc("_id", in), doc("$natural", int32(1)), doc("a", int32(1)), "[]"},
		{doc("a", int32(1)), nil, nil, "[]"},
		// not pushed down: the projection is not plain inclusion
		{doc("_id", in), nil, nil, "[]"},
		{doc("_id", in), nil, doc(), "[]"},
		{doc("_id", in), nil, doc("_id", int32(0)), "[]"},
		{doc("_id", in), nil, doc("a", int32(0)), "[]"},
		{doc("_id", in), nil, doc("a", int32(2)), "[]"},
		{doc("_id", in), nil, doc("a", false), "[]"},
		{doc("_id", in), nil, doc("a", "literal"), "[]"},
		{doc("_id", in), nil, doc("a", doc("$slice", int32(1))), "[]"},
		{doc("_id", in), nil, doc("a", doc("$elemMatch", doc("b", int32(1)))), "[]"},
		{doc("_id", in), nil, doc("a.$", int32(1)), "[]"},
		{doc("_id", in), nil, doc("a.$b", int32(1)), "[]"},
		{doc("_id", in), nil, doc("a..b", int32(1)), "[]"},
		{doc("_id", in), nil, doc("a", int32(1), "_id", "literal"), "[]"},
		{doc("_id", in), nil, doc("a", int32(1), "_id", int32(5)), "[]"},
	} {
		params := &common.FindParams{Filter: c.filter, Sort: c.sort, Projection: c.projection}
		if got := fmt.Sprint(tallyProjectionPaths(params)); got != c.want {
			t.Errorf("case %d: tallyProjectionPaths = %s; want %s", i, got, c.want)
		}
	}
}
