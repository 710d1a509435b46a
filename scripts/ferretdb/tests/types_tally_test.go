// Checks of patch 22 (PATCH_TAG tally20) in internal/types: Document.Get, GetByPath and HasByPath give what FerretDB
// 1.24.2's versions gave (values, error codes, error messages) while building no error for a key they do not find.
// Copied into a patched copy of FerretDB's source and run by `node scripts/ensure-ferretdb.js --test-patches`.

package types

import (
	"fmt"
	"math/rand"
	"strconv"
	"testing"

	"github.com/FerretDB/FerretDB/internal/util/must"
)

// stockGet is FerretDB 1.24.2's Document.Get.
func stockGet(d *Document, key string) (any, error) {
	if d == nil {
		return nil, fmt.Errorf("types.Document.Get: key not found: %q (nil document)", key)
	}

	if d.isKeyDuplicate(key) {
		panic(fmt.Sprintf("types.Document.Get: key is duplicated: %s", key))
	}

	if d.keys[key] == 0 {
		return nil, fmt.Errorf("types.Document.Get: key not found: %q", key)
	}

	for _, field := range d.fields {
		if field.key == key {
			return field.value, nil
		}
	}

	return nil, fmt.Errorf("types.Document.Get: key not found: %q", key)
}

// stockGetByPath is FerretDB 1.24.2's getByPath; stock HasByPath was `err == nil` of it.
func stockGetByPath(comp any, path Path) (any, error) {
	next := comp
	for _, p := range path.Slice() {
		switch s := next.(type) {
		case *Document:
			next, _ = stockGet(s, p)
			if next == nil {
				return nil, newPathError(ErrPathKeyNotFound, fmt.Errorf("types.getByPath: key not found: %q", p))
			}

		case *Array:
			index, err := strconv.Atoi(p)
			if err != nil {
				return nil, newPathError(ErrPathIndexInvalid, fmt.Errorf("types.getByPath: %w", err))
			}

			if index < 0 {
				return nil, newPathError(
					ErrPathIndexInvalid,
					fmt.Errorf("types.getByPath: array index below zero: %d", index),
				)
			}

			next, err = s.Get(index)
			if err != nil {
				return nil, newPathError(ErrPathIndexOutOfBound, fmt.Errorf("types.getByPath: %w", err))
			}

		default:
			return nil, newPathError(
				ErrPathCannotAccess,
				fmt.Errorf("types.getByPath: can't access %T by path %q", next, p),
			)
		}
	}

	return next, nil
}

var tallyKeys = []string{"a", "b", "hourly", "0", "1", "12"}

// tallyRandomValue is a scalar, a document or an array, nested at most depth deep.
func tallyRandomValue(random *rand.Rand, depth int) any {
	switch kind := random.Intn(6); {
	case depth > 0 && kind < 2:
		return tallyRandomDocument(random, depth-1)
	case depth > 0 && kind < 3:
		n := random.Intn(4)
		values := make([]any, n)
		for i := range values {
			values[i] = tallyRandomValue(random, depth-1)
		}

		return must.NotFail(NewArray(values...))
	case kind < 4:
		return int32(random.Intn(100))
	case kind < 5:
		return "s" + strconv.Itoa(random.Intn(10))
	default:
		return Null
	}
}

func tallyRandomDocument(random *rand.Rand, depth int) *Document {
	var pairs []any

	for _, key := range tallyKeys {
		if random.Intn(2) == 0 {
			pairs = append(pairs, key, tallyRandomValue(random, depth))
		}
	}

	return must.NotFail(NewDocument(pairs...))
}

func tallyRandomPath(random *rand.Rand) Path {
	elements := append([]string{"-1", "7", "x"}, tallyKeys...)
	n := 1 + random.Intn(4)
	path := make([]string, n)

	for i := range path {
		path[i] = elements[random.Intn(len(elements))]
	}

	return NewStaticPath(path...)
}

func TestTallyPathLookupsAnswerAsStock(t *testing.T) {
	random := rand.New(rand.NewSource(22))
	found := 0

	for run := 0; run < 20000; run++ {
		doc := tallyRandomDocument(random, 3)
		path := tallyRandomPath(random)

		want, wantErr := stockGetByPath(doc, path)
		got, gotErr := doc.GetByPath(path)

		if got != want || (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("GetByPath(%s) of %v: got %v, %v; stock gave %v, %v", path, doc, got, gotErr, want, wantErr)
		}

		if gotErr != nil {
			if gotErr.Error() != wantErr.Error() {
				t.Fatalf("GetByPath(%s): error %q, stock %q", path, gotErr, wantErr)
			}

			if gotErr.(*PathError).Code() != wantErr.(*PathError).Code() {
				t.Fatalf("GetByPath(%s): code %s, stock %s", path, gotErr.(*PathError).Code(), wantErr.(*PathError).Code())
			}
		} else {
			found++
		}

		if doc.HasByPath(path) != (wantErr == nil) {
			t.Fatalf("HasByPath(%s) of %v: %v, stock %v", path, doc, doc.HasByPath(path), wantErr == nil)
		}

		key := path.Slice()[0]
		value, err := doc.Get(key)
		stockValue, stockErr := stockGet(doc, key)

		if value != stockValue || fmt.Sprint(err) != fmt.Sprint(stockErr) {
			t.Fatalf("Get(%q) of %v: %v, %v; stock %v, %v", key, doc, value, err, stockValue, stockErr)
		}
	}

	// Both outcomes must have been exercised for the comparison to mean anything.
	if found < 1000 || found > 19000 {
		t.Fatalf("%d of 20000 paths found: the random documents do not exercise both outcomes", found)
	}
}

func TestTallyGetOfANilDocumentAnswersAsStock(t *testing.T) {
	var doc *Document

	value, err := doc.Get("a")
	_, stockErr := stockGet(doc, "a")

	if value != nil || err == nil || err.Error() != stockErr.Error() {
		t.Fatalf("Get of a nil document: %v, %v; stock nil, %v", value, err, stockErr)
	}
}
