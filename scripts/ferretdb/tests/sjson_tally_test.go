// Randomized checks of tally's FerretDB patches to internal/handler/sjson (scripts/ferretdb/patches/0009-*, 0011-* and 0016-*):
// copied into a patched copy of FerretDB's source and run with its own tests by `node scripts/ensure-ferretdb.js --test-patches`.

package sjson

import (
	"bytes"
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
	compact, fast := 0, 0
	for i := 0; i < 30000; i++ {
		plain := i%2 == 0
		d := must.NotFail(types.NewDocument("_id", randString(r, 8)))
		for j, n := 0, r.Intn(8); j < n; j++ {
			// sjson.Marshal writes top-level keys without escaping them
			if key := pathKeys[r.Intn(len(pathKeys))]; !d.Has(key) && !strings.ContainsAny(key, "\"\\") {
				d.Set(key, randCompactValue(r, 0, plain))
			}
		}
		data := must.NotFail(MarshalTally(d))
		full := must.NotFail(Marshal(d))
		if bytes.Contains(data, []byte(tallyIntsElem)) {
			compact++
			if len(data) >= len(full) {
				t.Fatalf("the compact form is not shorter:\n%s\n%s", data, full)
			}
		} else if !bytes.Equal(data, full) {
			t.Fatalf("without integer objects the forms differ:\n%s\n%s", data, full)
		}
		got, err := Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if again := must.NotFail(Marshal(got)); !bytes.Equal(again, full) {
			t.Fatalf("the compact form decoded to another document:\n%s\n%s\n%s", data, again, full)
		}
		if _, ok := tallyUnmarshal(data); ok {
			fast++
		} else if plain {
			t.Fatalf("fast path gave up on a plain document: %s", data)
		}
	}
	if compact < 20000 || fast < 15000 {
		t.Fatalf("compact form written %d times, fast path taken %d times", compact, fast)
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
		{"a repeated key", must.NotFail(types.NewDocument("a", int32(1), "a", int32(2))), false},
		{"no members", must.NotFail(types.NewDocument()), false},
	} {
		data := string(must.NotFail(MarshalTally(must.NotFail(types.NewDocument("_id", "x", "o", c.inner)))))
		if got := strings.Contains(data, `"o":`+tallyIntsElem); got != c.ints {
			t.Errorf("%s: %s", c.name, data)
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
