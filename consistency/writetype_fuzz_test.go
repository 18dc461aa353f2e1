package consistency_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/readpath/readpath/consistency"
)

// Whatever ParseWriteType accepts is a protocol name in some ASCII letter
// case, which prints back as that name; anything else is a typed error.
func FuzzParseWriteType(f *testing.F) {
	for _, s := range []string{"SIMPLE", "unlogged_batch", "Batch_Log", "CDC", "", "ſIMPLE", "BATCH ", "VIEWS"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, err := consistency.ParseWriteType(s)
		if err != nil {
			if !errors.Is(err, consistency.ErrUnknownWriteType) {
				t.Fatalf("%q: error %v does not wrap ErrUnknownWriteType", s, err)
			}
			return
		}
		if strings.ToUpper(s) != w.String() {
			t.Fatalf("%q parsed as %s", s, w)
		}
	})
}
