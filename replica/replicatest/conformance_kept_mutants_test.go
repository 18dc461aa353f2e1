package replicatest_test

import (
	"slices"

	"github.com/readpath/readpath/replica"
)

// Mutants that keep a command's arrays and change them at their next
// read, where TestReplica's check of the command as it returned saw it
// unchanged: an adapter that holds the last request's columns or slices
// to reuse them as scratch space.

// sortsKeptColumns sorts the columns of the read before this one.
func sortsKeptColumns(r *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	slices.Sort(r.keptColumns)
	r.keptColumns = cmd.Columns
	return cmd.Respond(stored)
}

// reversesKeptSlices reverses the slices of the read before this one.
func reversesKeptSlices(r *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	slices.Reverse(r.keptSlices)
	r.keptSlices = cmd.Query.Slices
	return cmd.Respond(stored)
}

// keepsFirstWriteMergesInPlace stores a partition's first write as given,
// and merges later writes of cells of the same shape into the rows it
// holds in place: into the first write's memory, the caller's.
func keepsFirstWriteMergesInPlace(r *mapReplica, k [2]string, held, p replica.Partition) error {
	if _, ok := r.data[k]; !ok {
		r.data[k] = p
		return nil
	}
	return mergesIntoAnsweredRows(r, k, held, p)
}
