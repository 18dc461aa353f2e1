package consistency_test

import (
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/nametest"
)

// ParseWriteType accepts exactly a protocol name with its ASCII letters in
// any case (no Unicode folding, such as ſ or ı for S or I, and no
// trimming), and refuses anything else with an error wrapping
// ErrUnknownWriteType.
func FuzzParseWriteType(f *testing.F) {
	for _, s := range []string{"SIMPLE", "unlogged_batch", "Batch_Log", "CDC", "", "ſIMPLE", "sımple", "BATCH ", "VIEWS"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		nametest.Check(t, s, consistency.ParseWriteType, consistency.ErrUnknownWriteType, consistency.WriteTypes()...)
	})
}
