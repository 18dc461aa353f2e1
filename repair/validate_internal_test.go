package repair

import (
	"errors"
	"fmt"
	"testing"

	"github.com/readpath/readpath/replica"
)

// A merge validates rows a stretch at a time; rows out of order across the
// end of a stretch must be caught too, with Validate's error.
func TestMergeCatchesDisorderAcrossValidationStretches(t *testing.T) {
	rows := make([]replica.Row, 3*validateCells)
	for i := range rows {
		rows[i] = replica.NewRow(fmt.Sprintf("r%06d", i), replica.Live("a", "x", 1), replica.Live("b", "y", 1))
	}
	v := replica.Partition{Key: "k", Rows: rows}
	var m merger
	m.prepare([]replica.Partition{v}, false)
	if !m.validateAhead(0) {
		t.Fatal("the first stretch of a valid version fails")
	}
	end := m.valid[0] // where the first stretch ends
	if end == 0 || end >= len(rows) {
		t.Fatalf("the first stretch ends at row %d of %d", end, len(rows))
	}
	rows[end].Clustering = rows[end-1].Clustering
	_, err := Merge(v)
	var verr *VersionsError
	if !errors.As(err, &verr) || verr.Index != 0 || !errors.Is(err, replica.ErrInvalidPartition) {
		t.Fatalf("Merge of a version whose row %d repeats row %d's key: %v", end, end-1, err)
	}
	if want := v.Validate(); verr.Err.Error() != want.Error() {
		t.Fatalf("Merge reports %v, Validate %v", verr.Err, want)
	}
}
