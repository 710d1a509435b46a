// Checks of tally's patch to internal/util/resource (PATCH_TAG tally11): production builds track nothing. Copied
// into a patched copy of FerretDB's source and run by `node scripts/ensure-ferretdb.js --test-patches`.

//go:build !(ferretdb_debug || race)

package resource

import (
	"runtime"
	"runtime/pprof"
	"testing"
)

type tallyTracked struct {
	token *Token
}

func TestTallyTrackingOffInProductionBuilds(t *testing.T) {
	obj := &tallyTracked{token: NewToken()}
	Track(obj, obj.token)

	if p := pprof.Lookup(profileName(obj)); p != nil {
		t.Fatalf("a production build registered the profile %q", p.Name())
	}

	// Tracked and dropped without Untrack: a debug build's finalizer would panic here.
	obj = nil
	_ = obj

	runtime.GC()
	runtime.GC()

	Untrack(&tallyTracked{token: NewToken()}, NewToken())
}
