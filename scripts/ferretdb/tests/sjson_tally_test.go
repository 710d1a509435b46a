// Randomized checks of tally's FerretDB patches to internal/handler/sjson (scripts/ferretdb/patches/0009-*, 0011-*, 0016-*
// and 0021-*):
// copied into a patched copy of FerretDB's source and run with its own tests by `node scripts/ensure-ferretdb.js --test-patches`.

package sjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

var runes = []rune("abcXYZ019 _-.$éü日本\t\n\u0001\u007f😀'<>&/\"\\")

func randString(r *rand.Rand, n int) string {
	out := make([]rune, r.Intn(n+1))
	for i := range out {
		out[i] = runes[r.Intn(len(runes))]
	}
	return string(out)
}

func randKey(r *rand.Rand) string {
	keyRunes := []rune("abc019_-éü日😀")
	out := make([]rune, 1+r.Intn(6))
	for i := range out {
		out[i] = keyRunes[r.Intn(len(keyRunes))]
	}
	return string(out)
}

func randValue(r *rand.Rand, depth int, plain bool) any {
	k := r.Intn(13)
	if depth > 3 && k < 2 {
		k = 2
	}
	switch k {
	case 0:
		d := must.NotFail(types.NewDocument())
		for i, n := 0, r.Intn(6); i < n; i++ {
			key := randKey(r)
			if !d.Has(key) {
				d.Set(key, randValue(r, depth+1, plain))
			}
		}
		return d
	case 1:
		a := types.MakeArray(0)
		for i, n := 0, r.Intn(5); i < n; i++ {
			a.Append(randValue(r, depth+1, plain))
		}
		return a
	case 2:
		return int32(r.Int31() - r.Int31())
	case 3:
		return r.Int63() - r.Int63()
	case 4:
		return r.NormFloat64() * 1e6
	case 5:
		return randString(r, 12)
	case 6:
		return r.Intn(2) == 0
	case 7:
		return time.UnixMilli(r.Int63n(4e12)).UTC()
	case 8:
		return types.Null
	case 9:
		return types.ObjectID{byte(r.Intn(256)), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	case 10:
		return []int32{0, 1, -1, 255, 256, -2147483648, 2147483647, 100}[r.Intn(8)]
	case 11:
		// Binaries are plain too (tally10): the fast path reads their subtype.
		b := make([]byte, r.Intn(40))
		r.Read(b)
		return types.Binary{Subtype: []types.BinarySubtype{types.BinaryGeneric, types.BinaryUser}[r.Intn(2)], B: b}
	default:
		if plain {
			return "x"
		}
		return types.Regex{Pattern: randString(r, 5), Options: "i"}
	}
}

func TestTallyFastDecodeRoundTrips(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	fast := 0
	for i := 0; i < 30000; i++ {
		plain := i%2 == 0
		d := must.NotFail(types.NewDocument())
		for j, n := 0, r.Intn(12); j < n; j++ {
			key := randKey(r)
			if !d.Has(key) {
				d.Set(key, randValue(r, 0, plain))
			}
		}
		data, err := Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		again, err := Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, again) {
			t.Fatalf("round trip changed the document:\n%s\n%s", data, again)
		}
		if _, ok := tallyUnmarshal(data); ok {
			fast++
		} else if plain {
			t.Fatalf("fast path gave up on a plain document: %s", data)
		}
	}
	if fast < 15000 {
		t.Fatalf("fast path taken %d times", fast)
	}
}

func TestTallyInt32(t *testing.T) {
	for _, c := range []struct {
		in string
		n  int32
		ok bool
	}{
		{"0", 0, true}, {"-1", -1, true}, {"2147483647", 2147483647, true}, {"-2147483648", -2147483648, true},
		{"2147483648", 0, false}, {"-2147483649", 0, false}, {"01", 0, false}, {"", 0, false}, {"-", 0, false},
		{"1.5", 0, false}, {"1e3", 0, false}, {"12345678901", 0, false}, {" 1", 0, false},
	} {
		n, ok := tallyInt32([]byte(c.in))
		if n != c.n || ok != c.ok {
			t.Errorf("tallyInt32(%q) = %d, %v; want %d, %v", c.in, n, ok, c.n, c.ok)
		}
	}
}

func TestTallyFastDecodeGivesUpOnForeignJSON(t *testing.T) {
	for _, data := range []string{
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1,"a":2}`,
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a","a"]},"a":1}`,
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"],"x":1},"a":1}`,
		`{"a":1,"$s":{"p":{"a":{"t":"int"}},"$k":["a"]}}`,
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1} x`,
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":"1}`,
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"b":1}`,
	} {
		if _, ok := tallyUnmarshal([]byte(data)); ok {
			t.Errorf("fast path accepted %s", data)
		}
	}
}

// randIntDoc is an object of int32 members, as tally's counters and sketch registers are; keys may need escaping.
func randIntDoc(r *rand.Rand) *types.Document {
	d := must.NotFail(types.NewDocument())
	for i, n := 0, 1+r.Intn(8); i < n; i++ {
		key := randKey(r)
		if r.Intn(4) == 0 {
			key = pathKeys[r.Intn(len(pathKeys))]
		}
		if !d.Has(key) {
			d.Set(key, []int32{0, 1, -1, 7, 2147483647, -2147483648, r.Int31()}[r.Intn(7)])
		}
	}
	return d
}

// randCompactValue is randValue with objects of int32 members often, nested in objects and arrays.
func randCompactValue(r *rand.Rand, depth int, plain bool) any {
	switch k := r.Intn(5); {
	case k == 0:
		return randIntDoc(r)
	case k == 1 && depth < 3:
		d := must.NotFail(types.NewDocument())
		for i, n := 0, r.Intn(5); i < n; i++ {
			if key := randKey(r); !d.Has(key) {
				d.Set(key, randCompactValue(r, depth+1, plain))
			}
		}
		return d
	case k == 2 && depth < 3:
		return must.NotFail(types.NewArray(randIntDoc(r), randCompactValue(r, depth+1, plain)))
	default:
		return randValue(r, depth, plain)
	}
}

func TestTallyCompactRoundTrips(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	compact, trees, short, fast := 0, 0, 0, 0
	for i := 0; i < 30000; i++ {
		plain := i%2 == 0
		d := must.NotFail(types.NewDocument("_id", randString(r, 8)))
		for j, n := 0, r.Intn(8); j < n; j++ {
			// sjson.Marshal writes top-level keys without escaping them
			if key := pathKeys[r.Intn(len(pathKeys))]; !d.Has(key) && !strings.ContainsAny(key, "\"\\") {
				d.Set(key, randCompactValue(r, 0, plain))
			}
		}
		full := must.NotFail(Marshal(d))
		// Patch 16's form (integer objects compact), which MarshalTally writes when the short one does not apply.
		compacted := must.NotFail(tallyMarshal(d, tallyCompact))
		if bytes.Contains(compacted, []byte(tallyIntTreeElem)) {
			trees++ // patch 24
		}
		if bytes.Contains(compacted, []byte(tallyIntsElem)) || bytes.Contains(compacted, []byte(tallyIntTreeElem)) {
			compact++
			if len(compacted) >= len(full) {
				t.Fatalf("the compact form is not shorter:\n%s\n%s", compacted, full)
			}
		} else if !bytes.Equal(compacted, full) {
			t.Fatalf("without integer objects the forms differ:\n%s\n%s", compacted, full)
		}
		data := must.NotFail(MarshalTally(d))
		switch {
		case !tallyShortable(d):
			if !bytes.Equal(data, compacted) {
				t.Fatalf("not shortable, yet not written compact:\n%s\n%s", data, compacted)
			}
		case len(data) >= len(compacted) || bytes.Contains(data, []byte(`"$k"`)):
			t.Fatalf("the short form is not shorter, or lists keys:\n%s\n%s", data, compacted)
		default:
			short++
		}
		for _, stored := range [][]byte{compacted, data} {
			got, err := Unmarshal(stored)
			if err != nil {
				t.Fatalf("%s: %v", stored, err)
			}
			if again := must.NotFail(Marshal(got)); !bytes.Equal(again, full) {
				t.Fatalf("the stored form decoded to another document:\n%s\n%s\n%s", stored, again, full)
			}
		}
		if _, ok := tallyUnmarshal(data); ok {
			fast++
		} else if plain || tallyShortable(d) {
			// The short form is read by the fast path only: it must never give up on it.
			t.Fatalf("fast path gave up on a plain or short document: %s", data)
		}
	}
	if compact < 20000 || trees < 1000 || short < 15000 || fast < 15000 {
		t.Fatalf("compact form written %d times (%d with integer trees), short %d times, fast path taken %d times",
			compact, trees, short, fast)
	}
}

// The short form is written for every document with no regular expression and no repeated key, at any depth, and
// only for those.
func TestTallyShortOnlyWhereTheFastPathReadsItWhole(t *testing.T) {
	doc := func(pairs ...any) *types.Document { return must.NotFail(types.NewDocument(pairs...)) }
	for _, c := range []struct {
		name  string
		value any
		short bool
	}{
		{"scalars", doc("s", "x", "i", int32(1), "l", int64(2), "d", 1.5, "b", true, "n", types.Null), true},
		{"a nested object and an array", doc("o", doc("a", doc("b", "x")), "a", must.NotFail(types.NewArray("x", doc()))), true},
		{"a regular expression", types.Regex{Pattern: "x", Options: "i"}, false},
		{"a nested regular expression", doc("o", doc("r", types.Regex{Pattern: "x"})), false},
		{"a regular expression in an array", must.NotFail(types.NewArray(int32(1), types.Regex{Pattern: "x"})), false},
		{"a repeated key", doc("a", int32(1), "a", "x"), false},
		{"a repeated key in an array", must.NotFail(types.NewArray(doc("a", int32(1), "a", int32(1)))), false},
	} {
		d := doc("_id", "x", "v", c.value)
		data := must.NotFail(MarshalTally(d))
		if got := !bytes.Contains(data, []byte(`"$k"`)); got != c.short {
			t.Errorf("%s: %s", c.name, data)
		}
		if strings.Contains(c.name, "repeated") {
			continue // sjson cannot decode a repeated key in either form
		}
		got, err := Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: %s: %v", c.name, data, err)
		}
		if g, w := must.NotFail(Marshal(got)), must.NotFail(Marshal(d)); !bytes.Equal(g, w) {
			t.Errorf("%s: decoded %s, want %s", c.name, g, w)
		}
	}
}

// The short form's elements are read by the fast path only: the original decoding refuses them, so a document the
// fast path cannot read fails loudly instead of decoding in another order.
func TestTallyShortFormRefusedByTheOriginalDecoding(t *testing.T) {
	data := []byte(`{"$s":{"p":{"_id":"s","b":"i","a":"i"}},"_id":"x","b":1,"a":2}`)
	got, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if keys := strings.Join(got.Keys(), ","); keys != "_id,b,a" {
		t.Fatalf("keys %s", keys)
	}
	for _, data := range []string{
		`{"$s":{"p":{"_id":"s","b":"i"}},"_id":"x","b":"1"}`,
		`{"$s":{"p":{"_id":"s","b":"i"}},"_id":"x"}`,
		`{"$s":{"p":{"_id":"s","b":"i"}},"_id":"x","a":1}`,
		`{"$s":{"p":{"_id":"s","b":"q"}},"_id":"x","b":1}`,
		`{"$s":{"p":{"_id":"s","o":"N"}},"_id":"x","o":{}}`,
	} {
		if d, err := Unmarshal([]byte(data)); err == nil {
			t.Errorf("decoded %s as %s", data, types.FormatAnyValue(d))
		}
	}
}

func TestTallyCompactOnlyForDistinctInt32Members(t *testing.T) {
	for _, c := range []struct {
		name  string
		inner *types.Document
		ints  bool
	}{
		{"int32 members", must.NotFail(types.NewDocument("a", int32(1), "b", int32(-2))), true},
		{"an int64 member", must.NotFail(types.NewDocument("a", int32(1), "b", int64(2))), false},
		{"a double member", must.NotFail(types.NewDocument("a", int32(1), "b", float64(2))), false},
		{"a null member", must.NotFail(types.NewDocument("a", int32(1), "b", types.Null)), false},
		{"an object member", must.NotFail(types.NewDocument("a", must.NotFail(types.NewDocument("x", int32(1))))), false},
		{"an integer array member", must.NotFail(types.NewDocument("a", must.NotFail(types.NewArray(int32(1))))), false},
		{"a repeated key", must.NotFail(types.NewDocument("a", int32(1), "a", int32(2))), false},
		{"no members", must.NotFail(types.NewDocument()), false},
	} {
		d := must.NotFail(types.NewDocument("_id", "x", "o", c.inner))
		data := string(must.NotFail(tallyMarshal(d, tallyCompact)))
		if got := strings.Contains(data, `"o":`+tallyIntsElem); got != c.ints {
			t.Errorf("%s: %s", c.name, data)
		}
		data = string(must.NotFail(tallyMarshal(d, tallyShort)))
		if got := strings.Contains(data, `"o":"N"`); got != c.ints {
			t.Errorf("%s, short: %s", c.name, data)
		}
	}
}

// Patch 24: an object of int32 members and, at any depth, objects of the same kind is one element, {"t":"inttree"}
// or "M" in the short form, and only such an object; an object of int32 members alone stays patch 16's.
func TestTallyIntTreeOnlyForIntegerTrees(t *testing.T) {
	doc := func(pairs ...any) *types.Document { return must.NotFail(types.NewDocument(pairs...)) }
	for _, c := range []struct {
		name  string
		inner *types.Document
		tree  bool
	}{
		{"hours of minutes", doc("18", doc("12", int32(1), "36", int32(2)), "19", doc("0", int32(3))), true},
		{"three levels and an int32 beside them", doc("a", doc("b", doc("c", int32(1))), "n", int32(4)), true},
		{"int32 members only", doc("a", int32(1), "b", int32(2)), false},
		{"an int64 deep inside", doc("a", doc("b", doc("c", int64(1)))), false},
		{"a double deep inside", doc("a", doc("b", 1.5)), false},
		{"a null deep inside", doc("a", doc("b", types.Null)), false},
		{"a string deep inside", doc("a", doc("b", "1")), false},
		{"an array deep inside", doc("a", doc("b", must.NotFail(types.NewArray(int32(1))))), false},
		{"an empty object deep inside", doc("a", doc("b", doc())), false},
		{"a repeated key deep inside", doc("a", doc("b", int32(1), "b", int32(2))), false},
		{"a repeated key at the top", doc("a", doc("b", int32(1)), "a", doc("b", int32(2))), false},
	} {
		d := doc("_id", "x", "o", c.inner)
		compact := must.NotFail(tallyMarshal(d, tallyCompact))
		if got := bytes.Contains(compact, []byte(`"o":`+tallyIntTreeElem)); got != c.tree {
			t.Errorf("%s: %s", c.name, compact)
		}
		short := must.NotFail(tallyMarshal(d, tallyShort))
		if got := bytes.Contains(short, []byte(`"o":"M"`)); got != c.tree {
			t.Errorf("%s, short: %s", c.name, short)
		}
		if strings.Contains(c.name, "repeated") {
			continue // sjson cannot decode a repeated key in either form
		}
		want := must.NotFail(Marshal(d))
		for _, data := range [][]byte{compact, short, must.NotFail(MarshalTally(d))} {
			got, err := Unmarshal(data)
			if err != nil {
				t.Fatalf("%s: %s: %v", c.name, data, err)
			}
			if g := must.NotFail(Marshal(got)); !bytes.Equal(g, want) {
				t.Errorf("%s: decoded %s, want %s", c.name, g, want)
			}
		}
		if c.tree && len(short) >= len(want)/2 {
			t.Errorf("%s: the tree's short form (%d bytes) is not under half the full one (%d)", c.name, len(short), len(want))
		}
	}
}

func TestTallyCompactDecodeRefusesWhatItDoesNotWrite(t *testing.T) {
	for _, data := range []string{
		`{"$s":{"p":{"_id":{"t":"string"},"o":{"t":"ints"}},"$k":["_id","o"]},"_id":"x","o":{}}`,
		`{"$s":{"p":{"_id":{"t":"string"},"o":{"t":"ints"}},"$k":["_id","o"]},"_id":"x","o":{"a":1,"a":2}}`,
		`{"$s":{"p":{"_id":{"t":"string"},"o":{"t":"ints"}},"$k":["_id","o"]},"_id":"x","o":{"a":1.5}}`,
		`{"$s":{"p":{"_id":{"t":"string"},"o":{"t":"ints"}},"$k":["_id","o"]},"_id":"x","o":{"a":2147483648}}`,
		`{"$s":{"p":{"_id":{"t":"string"},"o":{"t":"ints"}},"$k":["_id","o"]},"_id":"x","o":{"a":"1"}}`,
		`{"$s":{"p":{"_id":{"t":"string"},"o":{"t":"ints"}},"$k":["_id","o"]},"_id":"x","o":[1]}`,
		// Patch 24's integer trees, in both forms: what MarshalTally never writes under them.
		`{"$s":{"p":{"_id":{"t":"string"},"o":{"t":"inttree"}},"$k":["_id","o"]},"_id":"x","o":{}}`,
		`{"$s":{"p":{"_id":{"t":"string"},"o":{"t":"inttree"}},"$k":["_id","o"]},"_id":"x","o":{"a":{}}}`,
		`{"$s":{"p":{"_id":{"t":"string"},"o":{"t":"inttree"}},"$k":["_id","o"]},"_id":"x","o":{"a":{"b":1.5}}}`,
		`{"$s":{"p":{"_id":{"t":"string"},"o":{"t":"inttree"}},"$k":["_id","o"]},"_id":"x","o":{"a":{"b":1,"b":2}}}`,
		`{"$s":{"p":{"_id":{"t":"string"},"o":{"t":"inttree"}},"$k":["_id","o"]},"_id":"x","o":{"a":{"b":[1]}}}`,
		`{"$s":{"p":{"_id":"s","o":"M"}},"_id":"x","o":{"a":{"b":2147483648}}}`,
		`{"$s":{"p":{"_id":"s","o":"M"}},"_id":"x","o":{"a":{"b":"1"}}}`,
		`{"$s":{"p":{"_id":"s","o":"M"}},"_id":"x","o":{"a":1,"a":{"b":1}}}`,
		`{"$s":{"p":{"_id":"s","o":"M"}},"_id":"x","o":{"a":null}}`,
		`{"$s":{"p":{"_id":"s","o":"M"}},"_id":"x","o":7}`,
	} {
		if d, err := Unmarshal([]byte(data)); err == nil {
			t.Errorf("decoded %s as %s", data, types.FormatAnyValue(d))
		}
		if d, err := UnmarshalTallyPaths([]byte(data), NewTallyPaths([]string{"o.a"})); err == nil {
			t.Errorf("decoded %s along o.a as %s", data, types.FormatAnyValue(d))
		}
	}
}

func BenchmarkTallyUnmarshalSketch(b *testing.B) {
	v := must.NotFail(types.NewDocument())
	for i := 0; i < 800; i++ {
		v.Set(string(rune('0'+i%10))+string(rune('a'+i/10%26))+string(rune('a'+i/260)), int32(i*7919))
	}
	d := must.NotFail(types.NewDocument("_id", "20260101/site/page", "daily", int32(5), "v", v))
	data := must.NotFail(Marshal(d))
	b.Run("patched", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			must.NotFail(Unmarshal(data))
		}
	})
	compact := must.NotFail(MarshalTally(d))
	b.Run("compact", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			must.NotFail(Unmarshal(compact))
		}
	})
	b.Run("marshal", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			must.NotFail(Marshal(d))
		}
	})
	b.Run("marshal compact", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			must.NotFail(MarshalTally(d))
		}
	})
}

// Three of tally's documents as patch 16 stored them in the peer benchmark (a page's minute, a page's day with its
// dimensions, a visit session), decoded and encoded in patch 16's form and in the short one:
// `go test -run XXX -bench TallyShortSchema ./internal/handler/sjson/` (tally's FerretDB build, patch 18).
var tallyStoredDocuments = map[string]string{
	"minute":  `{"$s":{"p":{"_id":{"t":"string"},"metadata":{"t":"object","$s":{"p":{"site":{"t":"string"},"page":{"t":"string"},"date":{"t":"date"}},"$k":["site","page","date"]}},"_a":{"t":"ints"},"minute":{"t":"int"},"seconds":{"t":"ints"},"v":{"t":"ints"},"vm":{"t":"ints"}},"$k":["_id","metadata","_a","minute","seconds","v","vm"]},"_id":"202611271442/bench.example/articles/0313.html","metadata":{"site":"bench.example","page":"/articles/0313.html","date":1795790520000},"_a":{"6JxvT1ah":1},"minute":1,"seconds":{"57":1},"v":{"138":570425376},"vm":{"e":1,"p":4,"s":2044,"v":2}}`,
	"daily":   `{"$s":{"p":{"_id":{"t":"string"},"metadata":{"t":"object","$s":{"p":{"site":{"t":"string"},"page":{"t":"string"},"date":{"t":"date"}},"$k":["site","page","date"]}},"_a":{"t":"ints"},"d":{"t":"object","$s":{"p":{"browser":{"t":"ints"},"country":{"t":"ints"},"device":{"t":"ints"},"os":{"t":"ints"},"source":{"t":"ints"},"utmCampaign":{"t":"ints"},"utmMedium":{"t":"ints"},"utmSource":{"t":"ints"}},"$k":["browser","country","device","os","source","utmCampaign","utmMedium","utmSource"]}},"daily":{"t":"int"},"hourly":{"t":"ints"},"minute":{"t":"object","$s":{"p":{"17":{"t":"ints"},"18":{"t":"ints"},"19":{"t":"ints"},"21":{"t":"ints"}},"$k":["17","18","19","21"]}},"v":{"t":"ints"},"vh":{"t":"object","$s":{"p":{"17":{"t":"ints"},"18":{"t":"ints"},"19":{"t":"ints"},"21":{"t":"ints"}},"$k":["17","18","19","21"]}}},"$k":["_id","metadata","_a","d","daily","hourly","minute","v","vh"]},"_id":"20261028/bench.example/articles/0006.html","metadata":{"site":"bench.example","page":"/articles/0006.html","date":1793145600000},"_a":{"inyA1yil":1},"d":{"browser":{"Chrome":2,"Safari":3},"country":{"(unknown)":1,"CA":1,"DE":1,"US":2},"device":{"mobile":3,"tablet":2},"os":{"Android":2,"iOS":1,"iPadOS":2},"source":{"(direct)":1,"Google":2,"longtail-247%2Eexample%2Eorg":1,"longtail-37%2Eexample%2Eorg":1},"utmCampaign":{"(none)":5},"utmMedium":{"(none)":5},"utmSource":{"(none)":5}},"daily":5,"hourly":{"17":1,"18":1,"19":1,"21":2},"minute":{"17":{"3":1},"18":{"24":1},"19":{"13":1},"21":{"42":1,"50":1}},"v":{"1105":570425408,"1316":269484064,"473":142606340,"52":10485824,"572":537919492},"vh":{"17":{"b":1,"e":1,"p":1,"v":1,"x":1},"18":{"b":1,"e":1,"p":1,"v":1,"x":1},"19":{"b":1,"e":1,"p":1,"v":1,"x":1},"21":{"b":2,"e":2,"p":2,"v":2,"x":2}}}`,
	"session": `{"$s":{"p":{"_id":{"t":"string"},"o":{"t":"object","$s":{"p":{"6JxvT1ah":{"t":"object","$s":{"p":{"q":{"t":"int"},"p":{"t":"null"}},"$k":["q","p"]}}},"$k":["6JxvT1ah"]}},"w":{"t":"string"},"x":{"t":"date"},"z":{"t":"binData","s":0}},"$k":["_id","o","w","x","z"]},"_id":"0C4FoNMa0lfFMJIdziXCII","o":{"6JxvT1ah":{"q":1,"p":null}},"w":"6JxvT1ah:1","x":1795796469581,"z":"OgEAAAFzAABwQN3XIXpCAWwAAODw0tkhekICZQAUAAAAL2FydGljbGVzLzAxMjMuaHRtbAACeAAUAAAAL2FydGljbGVzLzAwMDEuaHRtbAAQbgAGAAAACGIAAARnADAAAAABMAAAAKAgJm3pQRAxANLh7wEBMgAAAMDqRn3kQRAzAM9RbSYQNAAIalQ8AANkAKgAAAACc291cmNlAAkAAAAoZGlyZWN0KQACdXRtU291cmNlAAcAAAAobm9uZSkAAnV0bU1lZGl1bQAHAAAAKG5vbmUpAAJ1dG1DYW1wYWlnbgAHAAAAKG5vbmUpAAJicm93c2VyAAcAAABTYWZhcmkAAm9zAAQAAABpT1MAAmRldmljZQAHAAAAbW9iaWxlAAJjb3VudHJ5AAoAAAAodW5rbm93bikAAAA="}`,
}

func BenchmarkTallyShortSchema(b *testing.B) {
	for _, name := range []string{"minute", "daily", "session"} {
		d := must.NotFail(Unmarshal([]byte(tallyStoredDocuments[name])))
		for _, form := range []tallyForm{tallyCompact, tallyShort} {
			data := must.NotFail(tallyMarshal(d, form))
			label := map[tallyForm]string{tallyCompact: "compact", tallyShort: "short"}[form]
			b.Run(name+"/decode "+label, func(b *testing.B) {
				b.ReportMetric(float64(len(data)), "bytes")
				for i := 0; i < b.N; i++ {
					must.NotFail(Unmarshal(data))
				}
			})
			b.Run(name+"/encode "+label, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					must.NotFail(tallyMarshal(d, form))
				}
			})
		}
	}
}

// Patch 21: a binary value's plain base64 string is decoded without encoding/json, to the same bytes; escaped or
// foreign forms take encoding/json's path and get its answer, errors included.
func TestTallyBinaryDecodesAsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	subtype := types.BinaryGeneric
	sch := &elem{Type: elemTypeBinData, Subtype: &subtype}
	decode := func(data string) ([]byte, error) {
		var bin binaryType
		err := bin.UnmarshalJSONWithSchema([]byte(data), sch)
		return bin.B, err
	}
	// The decoding before the patch.
	original := func(data string) ([]byte, error) {
		r := bytes.NewReader([]byte(data))
		dec := json.NewDecoder(r)
		dec.DisallowUnknownFields()
		var o []byte
		if err := dec.Decode(&o); err != nil {
			return nil, err
		}
		return o, checkConsumed(dec, r)
	}
	for i := 0; i < 500; i++ {
		b := make([]byte, r.Intn(3000))
		r.Read(b)
		data := string(must.NotFail(json.Marshal(b)))
		_, plain := tallyPlainBase64([]byte(data))
		if !plain {
			t.Fatalf("json.Marshal's form of %d bytes took the slow path", len(b))
		}
		got, err := decode(data)
		if err != nil || !bytes.Equal(got, b) || got == nil {
			t.Fatalf("%d bytes decoded to %d bytes (nil: %v), err %v", len(b), len(got), got == nil, err)
		}
		if len(data) > 2 {
			// The same string with its first character escaped: encoding/json's path, the same bytes.
			escaped := fmt.Sprintf(`"\u%04x%s`, data[1], data[2:])
			if _, plain = tallyPlainBase64([]byte(escaped)); plain {
				t.Fatalf("an escaped string took the fast path")
			}
			if got, err = decode(escaped); err != nil || !bytes.Equal(got, b) {
				t.Fatalf("escaped: %d bytes decoded to %d, err %v", len(b), len(got), err)
			}
		}
	}
	for _, foreign := range []string{`"QUJD"  `, `"QUJ"`, `"QU=D"`, `123`, `"QUJD`, `["QUJD"]`} {
		want, wantErr := original(foreign)
		got, err := decode(foreign)
		if (err == nil) != (wantErr == nil) || (err == nil && !bytes.Equal(got, want)) {
			t.Fatalf("%s: got %q, %v; before the patch: %q, %v", foreign, got, err, want, wantErr)
		}
	}
}
