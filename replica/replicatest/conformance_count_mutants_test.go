package replicatest_test

import (
	"github.com/readpath/readpath/replica"
)

// Mutants that count tombstones as an engine's own scan plausibly does,
// which the checks catch only with a threshold on every kind of query and
// with data holding a row's deletion beside a dead cell, and a static
// tombstone under a slice. (Found by a review: the suite passed them.)

// refusesOnlyWhen enforces the command's tombstone failure threshold only
// when enforced says so: an engine's LIMIT path, range scan or reverse
// iterator that does not count as its full scan does.
func refusesOnlyWhen(enforced func(replica.Query) bool) func(*mapReplica, replica.Command, replica.Partition) (replica.Response, error) {
	return func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if !enforced(cmd.Query) {
			cmd.TombstoneFailureThreshold = 0
		}
		return cmd.Respond(stored)
	}
}

// recounted answers Respond's answer with its tombstone count moved by
// more, computed over the data answer of cmd.
func recounted(more func(cmd replica.Command, answer replica.Partition) int) func(*mapReplica, replica.Command, replica.Partition) (replica.Response, error) {
	return func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		resp, err := cmd.Respond(stored)
		if err != nil {
			return resp, err
		}
		data := cmd
		data.DigestOnly = false
		d, err := data.Respond(stored)
		if err != nil {
			return resp, err
		}
		resp.Tombstones += more(cmd, d.Partition)
		return resp, nil
	}
}

// deadCells counts r's cells not live at now.
func deadCells(r *replica.Row, now int64) int {
	n := 0
	for _, c := range r.Cells {
		if !c.IsLive(now) {
			n++
		}
	}
	return n
}

// countsDeletionBesideDeadCells counts a row's deletion, or its expired
// liveness, in a row with dead cells too, which Cassandra counts only in
// a row without (MetricRecording.applyToRow's hasTombstones).
func countsDeletionBesideDeadCells(cmd replica.Command, p replica.Partition) int {
	n := 0
	for i := range p.Rows {
		r := &p.Rows[i]
		expired := r.Liveness.IsExpiring() && !r.Liveness.IsLive(cmd.NowInSec)
		if deadCells(r, cmd.NowInSec) > 0 && len(p.Rows[i].Cells) == deadCells(r, cmd.NowInSec) && (!r.Deletion.IsLive() || expired) {
			n++
		}
	}
	return n
}

// skipsStaticTombstonesOfSlices leaves out the static row's dead cells
// from the count of a sliced read, as a range scan that never meets the
// static row would.
func skipsStaticTombstonesOfSlices(cmd replica.Command, p replica.Partition) int {
	if cmd.Query.Slices == nil {
		return 0
	}
	return -deadCells(&p.Static, cmd.NowInSec)
}
