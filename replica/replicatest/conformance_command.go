package replicatest

import (
	"slices"
	"testing"

	"github.com/readpath/readpath/replica"
)

// checkCommandsStayAsGiven reads with a column selection out of order and
// in mixed case and reversed queries of several slices, data and digest,
// and checks that Read left the command's Columns and Slices as it was given
// them: a coordinator shares one Command between the goroutines that send
// it (replica.Command) and checks their answers against it, so a replica
// that sorts or lower-cases the columns or reverses the slices in place, to
// scan them, or appends to them, races with the others, and changes what
// they are asked and what the client is shown.
func checkCommandsStayAsGiven(t *testing.T, r replica.Replica) {
	applyVersions(t, r, "q", queried)
	two := []replica.Slice{sl(replica.StartAt("a"), replica.EndAt("b")), sl(replica.StartAt("d"), replica.EndAt("g"))}
	for _, q := range []replica.Query{{Slices: two}, {Slices: two, Reversed: true}, {Slices: two, Reversed: true, Limit: 2}} {
		for _, digestOnly := range []bool{false, true} {
			cmd := queryCommand("q", q)
			cmd.Columns, cmd.DigestOnly, cmd.DigestVersion = roomy([]string{"y", "x", "s", "Q"}, "past the selection"), digestOnly, askedVersion(t, r)
			cmd.Query.Slices = roomy(cmd.Query.Slices, sl(replica.StartAt("past"), replica.EndAt("the slices")))
			columns, given := slices.Clone(cmd.Columns[:cap(cmd.Columns)]), slices.Clone(cmd.Query.Slices[:cap(cmd.Query.Slices)])
			if _, err := readResponse(t, r, cmd); err != nil {
				t.Errorf("%s by %+v: %v", describe(cmd), cmd.Query, err)
			}
			expectSameCommand(t, cmd, columns, given)
		}
	}
}

// roomy returns a copy of vs with room for as many more, filled with
// sentinel past its length: a Read that appends to a command's columns or
// slices writes into the array the goroutines sharing it hold.
func roomy[T any](vs []T, sentinel T) []T {
	out := make([]T, 2*len(vs))
	copy(out, vs)
	for i := len(vs); i < len(out); i++ {
		out[i] = sentinel
	}
	return out[:len(vs)]
}

// expectSameCommand checks that cmd, after Read, still holds the columns
// and slices it was given, up to their capacity.
func expectSameCommand(t *testing.T, cmd replica.Command, columns []string, given []replica.Slice) {
	cmd.Columns, cmd.Query.Slices = cmd.Columns[:cap(cmd.Columns)], cmd.Query.Slices[:cap(cmd.Query.Slices)]
	if !slices.Equal(cmd.Columns, columns) {
		t.Errorf("%s changed the command's Columns from %q to %q: a Command is shared, so Read must leave them as given (sort a copy)", describe(cmd), columns, cmd.Columns)
	}
	if !slices.Equal(cmd.Query.Slices, given) {
		t.Errorf("%s (reversed: %v) changed the command's Slices from %v to %v: a Command is shared, so Read must leave them as given (reorder a copy)",
			describe(cmd), cmd.Query.Reversed, given, cmd.Query.Slices)
	}
}
