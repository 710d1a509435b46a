// Checks of tally's linear update-path conflict check in internal/handler/common/update.go (PATCH_TAG tally11):
// it must refuse exactly the updates FerretDB's quadratic check (types.IsConflictPath) refused, naming the same
// path. Copied into a patched copy of FerretDB's source and run by `node scripts/ensure-ferretdb.js --test-patches`.

package common

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// quadraticConflict is FerretDB 1.24.2's rule: the first key conflicting with an earlier one, or "".
func quadraticConflict(keys []string) string {
	var visited []types.Path

	for _, key := range keys {
		path := must.NotFail(types.NewPathFromString(key))
		if types.IsConflictPath(visited, path) != nil {
			return key
		}

		visited = append(visited, path)
	}

	return ""
}

func TestTallyOperatorKeysMatchTheQuadraticRule(t *testing.T) {
	random := rand.New(rand.NewSource(11))
	elements := []string{"a", "b", "ab", "minute", "12", "1"}

	for run := 0; run < 2000; run++ {
		n := 1 + random.Intn(6)
		keys := make([]string, 0, n)
		seen := map[string]bool{}

		for len(keys) < n {
			parts := make([]string, 1+random.Intn(3))
			for i := range parts {
				parts[i] = elements[random.Intn(len(elements))]
			}

			key := strings.Join(parts, ".")
			// One operator document cannot hold a key twice; equal keys across operators are covered below.
			if seen[key] {
				continue
			}

			seen[key] = true
			keys = append(keys, key)
		}

		half := random.Intn(len(keys) + 1)
		pairs := func(keys []string) []any {
			out := make([]any, 0, 2*len(keys))
			for _, k := range keys {
				out = append(out, k, int32(1))
			}

			return out
		}
		first := must.NotFail(types.NewDocument(pairs(keys[:half])...))
		second := must.NotFail(types.NewDocument(pairs(keys[half:])...))

		want := quadraticConflict(keys)
		err := validateOperatorKeys("update", first, second)

		if want == "" {
			if err != nil {
				t.Fatalf("%v: unexpected %v", keys, err)
			}

			continue
		}

		if err == nil || !strings.Contains(err.Error(), "'"+want+"'") {
			t.Fatalf("%v: want a conflict at %q, got %v", keys, want, err)
		}
	}
}

func TestTallyOperatorKeysAcrossOperators(t *testing.T) {
	inc := must.NotFail(types.NewDocument("minute.3.7", int32(1), "daily", int32(1)))

	for _, c := range []struct {
		key      string
		conflict bool
	}{
		{"minute.3.7", true},   // the same path
		{"minute.3", true},     // a prefix of an earlier path
		{"minute", true},       // a shorter prefix
		{"daily.x", true},      // an earlier path is its prefix
		{"minute.3.70", false}, // shares characters, not elements
		{"minute.37", false},
		{"dailyx", false},
	} {
		other := must.NotFail(types.NewDocument(c.key, int32(1)))
		err := validateOperatorKeys("update", inc, other)

		if (err != nil) != c.conflict {
			t.Errorf("%q: conflict %v, got %v", c.key, c.conflict, err)
		}
	}

	empty := must.NotFail(types.NewDocument("a..b", int32(1)))
	if err := validateOperatorKeys("update", empty); err == nil || !strings.Contains(err.Error(), "empty field name") {
		t.Errorf("empty element: got %v", err)
	}
}
