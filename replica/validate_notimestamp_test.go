package replica_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/readpath/readpath/replica"
)

// A timestamp of math.MinInt64 is Cassandra's "no timestamp"
// (LivenessInfo.NO_TIMESTAMP, DeletionTime.LIVE's markedForDeleteAt), and
// UpdateParameters refuses it for every write ("Out of bound timestamp"),
// so no cell, liveness, partition, row or range deletion carries it.
// A complex deletion may: overwriting a collection at math.MinInt64+1
// deletes it at the microsecond before (setComplexDeletionTimeForOverwrite).
func TestValidateRejectsNoTimestamp(t *testing.T) {
	const noTS = math.MinInt64
	d := replica.DeletedAt(noTS, 5)
	row := func(cells ...replica.Cell) replica.Row { return replica.NewRow("r", cells...) }
	tests := []struct {
		name string
		p    replica.Partition
		want replica.ValidationError
	}{
		{"live cell", replica.NewPartition("k", row(replica.Live("c", "v", noTS))),
			replica.ValidationError{Key: "k", Row: true, Clustering: "r", Column: "c"}},
		{"expiring cell", replica.NewPartition("k", row(replica.Expiring("c", "v", noTS, 10, 20))),
			replica.ValidationError{Key: "k", Row: true, Clustering: "r", Column: "c"}},
		{"cell tombstone", replica.NewPartition("k", row(replica.Tombstone("c", noTS, 5))),
			replica.ValidationError{Key: "k", Row: true, Clustering: "r", Column: "c"}},
		{"collection element", replica.NewPartition("k", row(replica.Live("m", "v", noTS).WithPath("x"))),
			replica.ValidationError{Key: "k", Row: true, Clustering: "r", Column: "m", Path: "x"}},
		{"static cell", replica.NewPartition("k").WithStatic(replica.Live("s", "v", noTS)),
			replica.ValidationError{Key: "k", Static: true, Column: "s"}},
		{"liveness", replica.NewPartition("k", row().WithLiveness(replica.Inserted(noTS))),
			replica.ValidationError{Key: "k", Row: true, Clustering: "r"}},
		{"expiring liveness", replica.NewPartition("k", row().WithLiveness(replica.InsertedWithTTL(noTS, 10, 20))),
			replica.ValidationError{Key: "k", Row: true, Clustering: "r"}},
		{"row deletion", replica.NewPartition("k", row().WithDeletion(d)),
			replica.ValidationError{Key: "k", Row: true, Clustering: "r"}},
		{"partition deletion", replica.NewPartition("k").WithDeletion(d),
			replica.ValidationError{Key: "k"}},
		{"range tombstone", replica.NewPartition("k").WithRangeTombstones(
			replica.NewRangeTombstone(replica.Bottom(), replica.Top(), d)),
			replica.ValidationError{Key: "k", Range: true}},
	}
	for _, tt := range tests {
		err := tt.p.Validate()
		var ve *replica.ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s at math.MinInt64: Validate() = %v, want a *ValidationError", tt.name, err)
			continue
		}
		if !strings.Contains(ve.Reason, "-9223372036854775808") {
			t.Errorf("%s: reason %q does not name the timestamp", tt.name, ve.Reason)
		}
		got := *ve
		got.Reason = ""
		if got != tt.want {
			t.Errorf("%s: error at %+v, want at %+v", tt.name, got, tt.want)
		}
	}

	for name, p := range map[string]replica.Partition{
		"complex deletion": replica.NewPartition("k", row(replica.Live("m", "v", noTS+1).WithPath("x")).
			WithComplexDeletion("m", d)),
		"one past": replica.NewPartition("k", row(replica.Live("c", "v", noTS+1)).
			WithLiveness(replica.Inserted(noTS+1)).WithDeletion(replica.DeletedAt(noTS+1, 5))).
			WithDeletion(replica.DeletedAt(noTS+1, 5)),
	} {
		if err := p.Validate(); err != nil {
			t.Errorf("%s: Validate() = %v, want nil", name, err)
		}
	}
}
