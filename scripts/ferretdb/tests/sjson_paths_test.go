// Randomized checks of tally's projection pushdown patch to internal/handler/sjson (UnmarshalTallyPaths, PATCH_TAG
// tally9): a document decoded only along a projection's paths, then projected by FerretDB's own projection code, must
// give exactly what the whole decoded document gives. Copied into a patched copy of FerretDB's source (beside
// sjson_tally_test.go, whose random values it uses) and run by `node scripts/ensure-ferretdb.js --test-patches`.

package sjson

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// pathKeys are few, so random paths often meet the random documents' keys; some need escaping in JSON.
var pathKeys = []string{"a", "b", "c", "d", "é", "日", "k<>&", "q\"t", "s\\l", "0", "source"}

// randPathDoc is a document whose keys come from pathKeys, nested up to depth 3, with any sjson value as leaves.
func randPathDoc(r *rand.Rand, depth int, plain bool) *types.Document {
	d := must.NotFail(types.NewDocument())
	for i, n := 0, r.Intn(7); i < n; i++ {
		key := pathKeys[r.Intn(len(pathKeys))]
		if d.Has(key) {
			continue
		}

		switch {
		case depth < 3 && r.Intn(5) == 0:
			d.Set(key, randIntDoc(r))
		case depth < 3 && r.Intn(3) == 0:
			d.Set(key, randPathDoc(r, depth+1, plain))
		case depth < 3 && r.Intn(8) == 0:
			a := types.MakeArray(0)
			for j, m := 0, r.Intn(3); j < m; j++ {
				if r.Intn(2) == 0 {
					a.Append(randPathDoc(r, depth+1, plain))
				} else {
					a.Append(randValue(r, depth+1, plain))
				}
			}
			d.Set(key, a)
		default:
			d.Set(key, randValue(r, depth, plain))
		}
	}

	return d
}

// randStoredDoc is a stored document: `_id` first (any value an _id may be), then random members.
func randStoredDoc(r *rand.Rand, plain bool) *types.Document {
	var id any
	switch r.Intn(4) {
	case 0:
		id = randString(r, 8)
	case 1:
		id = types.ObjectID{byte(r.Intn(256)), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	case 2:
		id = int32(r.Intn(1000))
	default:
		id = must.NotFail(types.NewDocument("s", randString(r, 4), "n", int32(r.Intn(10))))
	}

	d := must.NotFail(types.NewDocument("_id", id))
	rest := randPathDoc(r, 0, plain)
	for _, k := range rest.Keys() {
		// sjson.Marshal writes top-level keys without escaping them, so one with a quote or backslash is not valid JSON
		if k != "_id" && !strings.ContainsAny(k, "\"\\") {
			d.Set(k, must.NotFail(rest.Get(k)))
		}
	}

	return d
}

// randPaths is 1–4 dotted paths of 1–3 keys from pathKeys (paths that collide are allowed: NewTallyPaths must refuse them).
func randPaths(r *rand.Rand) []string {
	paths := make([]string, 1+r.Intn(4))
	for i := range paths {
		segs := make([]string, 1+r.Intn(3))
		for j := range segs {
			segs[j] = pathKeys[r.Intn(len(pathKeys))]
		}
		paths[i] = strings.Join(segs, ".")
	}

	return paths
}

// randProjection is the find's projection of paths, each with a value meaning inclusion, and sometimes `_id`.
func randProjection(r *rand.Rand, paths []string) *types.Document {
	p := must.NotFail(types.NewDocument())
	if r.Intn(3) == 0 {
		p.Set("_id", []any{int32(0), int32(1), false, true, float64(0), int64(1)}[r.Intn(6)])
	}

	for _, path := range paths {
		p.Set(path, []any{int32(1), true, int64(1), float64(1)}[r.Intn(4)])
	}

	if r.Intn(4) == 0 && p.Has("_id") {
		// `_id` last, as a projection may have it
		id := must.NotFail(p.Get("_id"))
		p.Remove("_id")
		p.Set("_id", id)
	}

	return p
}

// project applies the projection the way the find command's ProjectionIterator does; the result is marshaled
// (schema included, so types and order count) or the error is returned as text.
//
// FerretDB's projection panics on some documents (arrays of documents and other values under two paths): the panic
// is the result then, and the partial document must give the same.
func project(t *testing.T, doc, projection *types.Document) (res string) {
	t.Helper()

	defer func() {
		if p := recover(); p != nil {
			res = fmt.Sprint("panic: ", p)
		}
	}()

	validated, inclusion, err := common.ValidateProjection(projection)
	if err != nil {
		return "validate error: " + err.Error()
	}

	projected, err := common.ProjectDocument(doc, validated, must.NotFail(types.NewDocument()), inclusion)
	if err != nil {
		return "project error: " + err.Error()
	}

	return string(must.NotFail(Marshal(projected)))
}

func TestTallyPathsProjectionMatchesFullDecode(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	partial, skipped := 0, 0

	for i := 0; i < 40000; i++ {
		plain := i%2 == 0
		doc := randStoredDoc(r, plain)
		// Half the documents as the SQLite backend stores them (MarshalTally: short where the document allows,
		// integer objects compact), a quarter in patch 16's form only.
		marshal := Marshal
		switch i % 4 {
		case 2:
			marshal = func(d *types.Document) ([]byte, error) { return tallyMarshal(d, tallyCompact) }
		case 3:
			marshal = MarshalTally
		}
		data := must.NotFail(marshal(doc))

		paths := randPaths(r)
		tree := NewTallyPaths(paths)
		projection := randProjection(r, paths)

		full, err := Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}

		got, err := UnmarshalTallyPaths(data, tree)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}

		if tree != nil {
			p, ok := tallyUnmarshalPaths(data, tree)
			switch {
			case ok:
				partial++
				for _, k := range p.Keys() {
					if _, ok := tree[k]; !ok {
						t.Fatalf("partial decoding kept %q for %v: %s", k, paths, data)
					}
				}

				if p.Len() < full.Len() {
					skipped++
				}
			case plain:
				t.Fatalf("partial decoding gave up on a plain document: %s", data)
			case !bytes.Equal(must.NotFail(marshal(got)), data):
				t.Fatalf("after giving up, the document decoded differently: %s", data)
			}
		}

		want := project(t, full, projection)
		if have := project(t, got, projection); have != want {
			t.Fatalf("projection %v of\n%s\ngave\n%s\nfrom the partial document, and\n%s\nfrom the whole one",
				types.FormatAnyValue(projection), data, have, want)
		}
	}

	if partial < 10000 || skipped < 5000 {
		t.Fatalf("partial decoding taken %d times, skipped members %d times", partial, skipped)
	}
}

func TestNewTallyPaths(t *testing.T) {
	for _, c := range []struct {
		paths []string
		want  string
	}{
		{[]string{"a"}, "map[_id:map[] a:map[]]"},
		{[]string{"d.source", "metadata"}, "map[_id:map[] d:map[source:map[]] metadata:map[]]"},
		{[]string{"d.source", "d.browser.x"}, "map[_id:map[] d:map[browser:map[x:map[]] source:map[]]]"},
		{[]string{"a", "a"}, "map[]"},
		{[]string{"a", "a.b"}, "map[]"},
		{[]string{"a.b", "a"}, "map[]"},
		{[]string{"_id.x"}, "map[]"},
		{[]string{"_id"}, "map[]"},
		{[]string{"a..b"}, "map[]"},
		{[]string{"a."}, "map[]"},
		{[]string{""}, "map[]"},
	} {
		if got := fmt.Sprint(NewTallyPaths(c.paths)); got != c.want {
			t.Errorf("NewTallyPaths(%q) = %s; want %s", c.paths, got, c.want)
		}
	}
}

func TestTallyPathsGiveUpOnForeignJSON(t *testing.T) {
	tree := NewTallyPaths([]string{"a.x", "b"})
	for _, data := range []string{
		// properties not in the keys' order (the original decoding does not mind)
		`{"$s":{"p":{"b":{"t":"int"},"_id":{"t":"int"}},"$k":["_id","b"]},"_id":1,"b":2}`,
		// duplicates
		`{"$s":{"p":{"_id":{"t":"int"},"b":{"t":"int"},"b":{"t":"int"}},"$k":["_id","b","b"]},"_id":1,"b":2,"b":3}`,
		`{"$s":{"p":{"_id":{"t":"int"},"b":{"t":"int"}},"$k":["_id","b"]},"_id":1,"b":2,"b":3}`,
		// schema with more than p and $k, or $s not first
		`{"$s":{"p":{"_id":{"t":"int"}},"$k":["_id"],"x":1},"_id":1}`,
		`{"_id":1,"$s":{"p":{"_id":{"t":"int"}},"$k":["_id"]}}`,
		// keys that differ
		`{"$s":{"p":{"_id":{"t":"int"},"b":{"t":"int"}},"$k":["_id","c"]},"_id":1,"b":2}`,
		`{"$s":{"p":{"_id":{"t":"int"},"c":{"t":"int"}},"$k":["_id","b"]},"_id":1,"b":2}`,
		// a nested object on a path whose schema is out of order
		`{"$s":{"p":{"_id":{"t":"int"},"a":{"t":"object","$s":{"p":{"y":{"t":"int"},"x":{"t":"int"}},"$k":["x","y"]}}},` +
			`"$k":["_id","a"]},"_id":1,"a":{"x":1,"y":2}}`,
		// a needed value that does not decode
		`{"$s":{"p":{"_id":{"t":"int"},"b":{"t":"int"}},"$k":["_id","b"]},"_id":1,"b":"x"}`,
		// trailing bytes, bad JSON
		`{"$s":{"p":{"_id":{"t":"int"}},"$k":["_id"]},"_id":1} x`,
		`{"$s":{"p":{"_id":{"t":"int"},"c":{"t":"int"}},"$k":["_id","c"]},"_id":1,"c":"1}`,
	} {
		if _, ok := tallyUnmarshalPaths([]byte(data), tree); ok {
			t.Errorf("partial decoding accepted %s", data)
		}

		want, wantErr := Unmarshal([]byte(data))
		got, gotErr := UnmarshalTallyPaths([]byte(data), tree)
		if (wantErr == nil) != (gotErr == nil) {
			t.Errorf("%s: error %v, the original decoding's %v", data, gotErr, wantErr)
			continue
		}

		if wantErr == nil && !bytes.Equal(must.NotFail(Marshal(want)), must.NotFail(Marshal(got))) {
			t.Errorf("%s: decoded differently after giving up", data)
		}
	}
}

// tallyDailyDoc is shaped like a site's daily document (about 11,000 fields).
func tallyDailyDoc() *types.Document {
	d := must.NotFail(types.NewDocument())
	for _, dim := range []string{"source", "browser", "os", "device", "country", "language", "screen", "referrer"} {
		vals := must.NotFail(types.NewDocument())
		for i := 0; i < 400; i++ {
			vals.Set(fmt.Sprintf("%s-value-%d", dim, i), int32(i))
		}
		d.Set(dim, vals)
	}

	v := must.NotFail(types.NewDocument())
	for i := 0; i < 8192; i += 3 {
		v.Set(fmt.Sprint(i), int32(i*7919))
	}

	return must.NotFail(types.NewDocument(
		"_id", "2026-01-01/site",
		"metadata", must.NotFail(types.NewDocument("site", "site", "date", "2026-01-01")),
		"daily", int32(5), "d", d, "v", v,
	))
}

func BenchmarkTallyUnmarshalPaths(b *testing.B) {
	data := must.NotFail(Marshal(tallyDailyDoc()))
	b.Run("whole", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			must.NotFail(Unmarshal(data))
		}
	})
	tree := NewTallyPaths([]string{"metadata", "d.source"})
	b.Run("d.source", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, ok := tallyUnmarshalPaths(data, tree); !ok {
				b.Fatal("gave up")
			}
		}
	})
}

func TestTallyPathsIntoCompactObjects(t *testing.T) {
	o := must.NotFail(types.NewDocument("a", int32(1), "b", int32(2), "c", int32(3)))
	d := must.NotFail(types.NewDocument("_id", "x", "o", o, "n", int32(4)))

	for _, form := range []tallyForm{tallyCompact, tallyShort} {
		data := must.NotFail(tallyMarshal(d, form))

		got, ok := tallyUnmarshalPaths(data, NewTallyPaths([]string{"o.c", "o.a", "o.z"}))
		if !ok {
			t.Fatalf("partial decoding gave up on %s", data)
		}

		want := must.NotFail(types.NewDocument("_id", "x", "o", must.NotFail(types.NewDocument("a", int32(1), "c", int32(3)))))
		if g, w := must.NotFail(Marshal(got)), must.NotFail(Marshal(want)); !bytes.Equal(g, w) {
			t.Fatalf("got %s, want %s", g, w)
		}
	}
}

// Patch 24: paths go down an integer tree level by level, as they do into a document with a schema.
func TestTallyPathsIntoIntegerTrees(t *testing.T) {
	doc := func(pairs ...any) *types.Document { return must.NotFail(types.NewDocument(pairs...)) }
	o := doc(
		"h", doc("12", int32(1), "36", int32(2)),
		"g", doc("x", doc("y", int32(5)), "w", int32(6)),
		"n", int32(3),
		"u", doc("v", int32(7)),
	)
	d := doc("_id", "x", "o", o, "m", int32(4))

	for _, form := range []tallyForm{tallyCompact, tallyShort} {
		data := must.NotFail(tallyMarshal(d, form))
		if !bytes.Contains(data, []byte(tallyIntTreeElem)) && !bytes.Contains(data, []byte(`"o":"M"`)) {
			t.Fatalf("not written as an integer tree: %s", data)
		}

		got, ok := tallyUnmarshalPaths(data, NewTallyPaths([]string{"o.h.36", "o.g", "o.n.q", "o.z", "o.u.z"}))
		if !ok {
			t.Fatalf("partial decoding gave up on %s", data)
		}

		want := doc("_id", "x", "o", doc(
			"h", doc("36", int32(2)),
			"g", doc("x", doc("y", int32(5)), "w", int32(6)),
			"n", int32(3),
			"u", doc(),
		))
		if g, w := must.NotFail(Marshal(got)), must.NotFail(Marshal(want)); !bytes.Equal(g, w) {
			t.Fatalf("got %s, want %s", g, w)
		}
	}
}
