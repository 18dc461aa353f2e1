package replicatest_test

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A mutant is mapReplica with one bug an embedder plausibly writes, in its
// Read (given the stored partition, under the lock) or its Apply (given
// what it holds and the mutation's partition).
type mutant struct {
	read  func(r *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error)
	apply func(r *mapReplica, k [2]string, held, p replica.Partition) error
	// acksWhenCancelled: a call whose context ends while it waits returns
	// no error, and nothing read or written.
	acksWhenCancelled bool
	// returnsCause: a call whose context has ended returns
	// context.Cause(ctx), which is ctx.Err() only when no cause was given.
	returnsCause bool
}

// mutants maps each mutant to the check that must catch it.
var mutants = map[string]struct {
	m     mutant
	check string
}{
	// Pushing the query down to a storage engine.
	"drops the static row of a sliced read": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if cmd.Query.Slices != nil { // the engine's range scan never reaches the static row
			stored.Static = replica.Row{}
		}
		return cmd.Respond(stored)
	}}, "query_slices"},
	"reads a sliced partition without rows as missing": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if cmd.Query.Slices != nil && len(stored.Rows) == 0 { // found through its rows' index, which holds none
			stored = replica.Partition{Key: cmd.Key}
		}
		return cmd.Respond(stored)
	}}, "query_static_only"},
	"widens exclusive bounds": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		cmd.Query.Slices = inclusive(cmd.Query.Slices, true) // seeks are inclusive
		return cmd.Respond(stored)
	}}, "query_slices"},
	"reversed scans include an exclusive end": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if cmd.Query.Reversed { // SeekForPrev is inclusive
			cmd.Query.Slices = inclusive(cmd.Query.Slices, false)
		}
		return cmd.Respond(stored)
	}}, "query_paging"},
	"limits each slice":                       {mutant{read: limitEachSlice}, "query_limits"},
	"never refuses a limited read":            {mutant{read: refusesOnlyWhen(func(q replica.Query) bool { return q.Limit == 0 })}, "tombstone_threshold"},
	"never refuses a sliced read":             {mutant{read: refusesOnlyWhen(func(q replica.Query) bool { return q.Slices == nil })}, "tombstone_threshold"},
	"never refuses a reversed read":           {mutant{read: refusesOnlyWhen(func(q replica.Query) bool { return !q.Reversed })}, "tombstone_threshold"},
	"counts tombstones per slice":             {mutant{read: refusesPerSlice}, "tombstone_threshold"},
	"refuses by cell tombstones alone":        {mutant{read: refusesByCellTombstones}, "tombstone_threshold"},
	"refuses counting purgeable tombstones":   {mutant{read: refusesAt(func(c *replica.Command) { c.GCBefore = 0 })}, "tombstone_threshold"},
	"refuses not counting expired cells":      {mutant{read: refusesAt(func(c *replica.Command) { c.NowInSec = c.GCBefore })}, "tombstone_threshold"},
	"counts a deletion beside its dead cells": {mutant{read: recounted(countsDeletionBesideDeadCells)}, "query_slices"},
	"skips the static tombstones of a slice":  {mutant{read: recounted(skipsStaticTombstonesOfSlices)}, "query_slices"},
	"limits before projecting": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if cmd.Query.Limit == 0 || cmd.Columns == nil { // the engine's LIMIT, then the projection
			return cmd.Respond(stored)
		}
		all := cmd
		all.Columns, all.DigestOnly = nil, false
		limited, err := all.Respond(stored)
		if err != nil {
			return limited, err
		}
		cmd.Query.Limit = 0
		return cmd.Respond(limited.Partition)
	}}, "query_limits"},
	"limits stored rows": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if l := cmd.Query.Limit; l > 0 && !cmd.Query.Reversed && l < len(stored.Rows) { // counts rows, not live rows
			stored.Rows = stored.Rows[:l]
		}
		return cmd.Respond(stored)
	}}, "query_limits"},
	"answers a reversed read in descending order": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		resp, err := cmd.Respond(stored)
		if cmd.Query.Reversed {
			resp.Partition.Rows = slices.Clone(resp.Partition.Rows)
			slices.Reverse(resp.Partition.Rows)
		}
		return resp, err
	}}, "query_limits"},
	"unclipped range tombstones": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		resp, err := cmd.Respond(stored)
		if len(resp.Partition.RangeTombstones) > 0 {
			whole := cmd
			whole.Query, whole.DigestOnly = replica.Query{}, false
			all, _ := whole.Respond(stored)
			resp.Partition.RangeTombstones = all.Partition.RangeTombstones
		}
		return resp, err
	}}, "query_slices"},
	"counts the whole partition's tombstones": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		resp, err := cmd.Respond(stored)
		whole := cmd
		whole.Query, whole.TombstoneFailureThreshold = replica.Query{}, 0
		all, _ := whole.Respond(stored)
		resp.Tombstones = all.Tombstones
		return resp, err
	}}, "tombstone_threshold"},
	"sends its errors as text": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		resp, err := cmd.Respond(stored)
		if err != nil { // a wire that carries the message only
			err = errors.New(err.Error())
		}
		return resp, err
	}}, "tombstone_threshold"},
	"refuses with an error of its own": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		resp, err := cmd.Respond(stored)
		if err != nil { // the engine's own refusal
			err = errors.New("scan aborted: too many tombstones")
		}
		return resp, err
	}}, "tombstone_threshold"},
	"digests at its own version": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		cmd.DigestVersion = digest.V1 // the version the engine was written for
		return cmd.Respond(stored)
	}}, "digest_versions"},

	// Read time.
	"purges by the wall clock": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		cmd.NowInSec = time.Now().Unix()
		cmd.GCBefore = cmd.NowInSec - 864000
		return cmd.Respond(stored)
	}}, "read_time"},
	"ignores GCBefore": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		cmd.GCBefore = 0
		return cmd.Respond(stored)
	}}, "read_time"},
	"purges tombstones at NowInSec": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		cmd.GCBefore = cmd.NowInSec // gc_grace_seconds of 0
		return cmd.Respond(stored)
	}}, "read_time"},
	"digests unpurged data": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		resp, err := cmd.Respond(stored)
		if cmd.DigestOnly {
			cmd.NowInSec, cmd.GCBefore = 0, 0
			unpurged, _ := cmd.Respond(stored)
			resp.Digest = unpurged.Digest
		}
		return resp, err
	}}, "read_time"},
	"digests before the limit": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		resp, err := cmd.Respond(stored)
		if cmd.DigestOnly {
			cmd.Query.Limit = 0
			whole, _ := cmd.Respond(stored)
			resp.Digest = whole.Digest
		}
		return resp, err
	}}, "query_limits"},

	// Storing.
	"keeps the last partition deletion": {mutant{apply: func(r *mapReplica, k [2]string, held, p replica.Partition) error {
		merged, err := repair.Merge(held, p)
		if !p.Deletion.IsLive() { // a DELETE overwrites the one held
			merged.Deletion = p.Deletion
		}
		r.data[k] = merged
		return err
	}}, "apply_merges"},
	"drops range tombstones": {mutant{apply: func(r *mapReplica, k [2]string, held, p replica.Partition) error {
		p = p.Clone()
		p.RangeTombstones = nil // a storage format without them
		return mergeInto(r, k, held, p)
	}}, "read_time"},
	"loses TTLs": {mutant{apply: func(r *mapReplica, k [2]string, held, p replica.Partition) error {
		return mergeInto(r, k, held, mapCells(p, func(c *replica.Cell) {
			if !c.Tombstone {
				c.TTL, c.LocalDeletionTime = 0, 0
			}
		}))
	}}, "read_time"},
	"stamps tombstones at arrival": {mutant{apply: func(r *mapReplica, k [2]string, held, p replica.Partition) error {
		now := time.Now().Unix()
		return mergeInto(r, k, held, mapCells(p, func(c *replica.Cell) {
			if c.Tombstone {
				c.LocalDeletionTime = now
			}
		}))
	}}, "read_time"},
	"keeps the last write of a row": {mutant{apply: func(r *mapReplica, k [2]string, held, p replica.Partition) error {
		merged, err := repair.Merge(held, p)
		for i, row := range merged.Rows { // row by row, the written one replaces the held one
			if j := slices.IndexFunc(p.Rows, func(w replica.Row) bool { return w.Clustering == row.Clustering }); j >= 0 {
				merged.Rows[i] = p.Rows[j].Clone()
			}
		}
		r.data[k] = merged
		return err
	}}, "apply_merges"},

	// Context.
	"acknowledges what it drops when cancelled in flight": {mutant{acksWhenCancelled: true}, "cancelled_in_flight"},
	"returns its context's cause":                         {mutant{returnsCause: true}, "cancelled_context"},

	// Caching.
	"keys its digest cache without the table": {mutant{read: cachesDigests(func(cmd replica.Command) digestKey {
		return digestKey{cmd.Key, cmd.DigestVersion, cmd.NowInSec, cmd.GCBefore}
	})}, "tables_are_separate"},
	"keys its digest cache without gcBefore": {mutant{read: cachesDigests(func(cmd replica.Command) digestKey {
		return digestKey{key: cmd.Table + "/" + cmd.Key, version: cmd.DigestVersion, now: cmd.NowInSec}
	})}, "read_time"},
	"keeps what a read purged": {mutant{read: func(r *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		stored = stored.Purge(cmd.NowInSec, cmd.GCBefore) // compaction as it reads
		r.data[[2]string{cmd.Table, cmd.Key}] = stored
		return cmd.Respond(stored)
	}}, "read_time"},

	// Memory.
	"sorts the caller's columns": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		slices.Sort(cmd.Columns) // to search them; the caller's array
		return cmd.Respond(stored)
	}}, "commands_stay_as_given"},
	"lower-cases the caller's columns": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		for i, c := range cmd.Columns { // its store's names are lower case; the caller's array
			cmd.Columns[i] = strings.ToLower(c)
		}
		return cmd.Respond(stored)
	}}, "commands_stay_as_given"},
	"widens the caller's slices to scan": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		asked := cmd
		asked.Query.Slices = slices.Clone(cmd.Query.Slices)
		for i := range cmd.Query.Slices { // a scan of every row, filtered after; the caller's array
			cmd.Query.Slices[i] = replica.AllRows()
		}
		return asked.Respond(stored)
	}}, "commands_stay_as_given"},
	"reverses the caller's slices": {mutant{read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if cmd.Query.Reversed { // to scan them last first; the caller's array
			slices.Reverse(cmd.Query.Slices)
			cmd.Query.Slices = slices.Clone(cmd.Query.Slices)
			slices.Reverse(cmd.Query.Slices)
		}
		return cmd.Respond(stored)
	}}, "commands_stay_as_given"},
	"merges into answered rows": {mutant{apply: mergesIntoAnsweredRows}, "answers_stay_as_returned"},
	"merges into the rows of an answered scan": {mutant{read: copiesWholeReadsOnly, apply: mergesIntoAnsweredRows},
		"answers_stay_as_returned"},
	"reuses an answer buffer": {mutant{read: func(r *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		resp, err := cmd.Respond(stored)
		r.held = append(r.held[:0], resp.Partition.Rows...)
		resp.Partition.Rows = r.held
		return resp, err
	}}, "answers_stay_as_returned"},
	// Losing bytes or bits the data model keeps (conformance_wire_mutants_test.go).
	"carries column names and paths as UTF-8 strings": {utf8Transport, "binary_keys"},
	"stores local deletion times in 32 bits":          {store32BitTimes, "read_time"},
	"compares a negative gcBefore unsigned":           {unsignedGCBefore, "read_time"},
	"takes a gcBefore of 0 for unset":                 {unsetGCBefore, "read_time"},
	// Merging a field by the last write (conformance_merge_mutants_test.go).
	"keeps the last row liveness written":     {mutant{apply: lastLivenessWins}, "apply_merges_conflicts"},
	"keeps the last complex deletion written": {mutant{apply: lastComplexDeletionWins}, "apply_merges_conflicts"},
	"keeps the last range tombstone written":  {mutant{apply: lastRangeTombstoneWins}, "apply_merges_conflicts"},
	"keeps the held deletion on a tie":        {mutant{apply: heldDeletionWinsTies}, "apply_merges_conflicts"},
	"ties cells by value whatever expires":    {mutant{apply: valueWinsExpiringTies}, "apply_merges_conflicts"},
	// Reading a missing partition's or a selection's digest, and writing
	// concurrently (conformance_gap_mutants_test.go).
	"digests a missing partition as zero": {mutant{read: zeroDigestOfMissing}, "missing_partition"},
	"digests every column":                {mutant{read: digestsEveryColumn}, "digest_matches_data"},
	"merges outside its lock":             {mutant{apply: mergesOutsideItsLock}, "concurrent_use"},
	"drops the static complex deletions":  {mutant{apply: dropsStaticComplexDeletions}, "apply_merges_conflicts"},
	"a deletion drops the static row":     {mutant{apply: deletionDropsStaticRow}, "apply_merges_conflicts"},
	"keeps the last static cell written":  {mutant{apply: lastStaticCellWins}, "apply_merges_conflicts"},
	"expires cells a second early":        {mutant{read: expiresEarly}, "read_time"},
	// Judging an expiry a second off (conformance_expiry_mutants_test.go).
	"lives a row liveness through its expiry second": {mutant{read: livenessExpiresLate}, "read_time"},
	"expires row liveness a second early":            {mutant{read: livenessExpiresEarly}, "read_time"},
	"lives a simple cell through its expiry second":  {mutant{read: simpleCellsExpireLate}, "read_time"},
	"expires a collection's cells a second early":    {mutant{read: collectionCellsExpireEarly}, "read_time"},
	"lives a static cell through its expiry second":  {mutant{read: staticCellsExpireLate}, "read_time"},
	// Ties decided by kind or local deletion time, purges at gcBefore and
	// the static row of a projection (conformance_tie_mutants_test.go).
	"an expiring cell beats a tombstone on a tie":             {mutant{apply: expiringBeatsTombstoneOnTie}, "apply_merges_conflicts"},
	"ties expiring cells by value":                            {mutant{apply: valueTiesExpiringCells}, "apply_merges_conflicts"},
	"keeps the held cell tombstone on a tie":                  {mutant{apply: heldCellTombstoneWinsTie}, "apply_merges_conflicts"},
	"a permanent row liveness beats an expiring one on a tie": {mutant{apply: permanentLivenessWinsTie}, "apply_merges_conflicts"},
	"keeps the held row deletion on a tie":                    {mutant{apply: heldRowDeletionWinsTie}, "apply_merges_conflicts"},
	"keeps the held range tombstone on a tie":                 {mutant{apply: heldRangeTombstoneWinsTie}, "apply_merges_conflicts"},
	"keeps the held complex deletion on a tie":                {mutant{apply: heldComplexDeletionWinsTie}, "apply_merges_conflicts"},
	"purges deletions made at gcBefore":                       {mutant{read: purgesAtGCBefore}, "read_time"},
	// One kind of tombstone purged at gcBefore (conformance_gc_mutants_test.go).
	"purges a partition deletion made at gcBefore": {mutant{read: purgesPartitionDeletionAtGCBefore}, "read_time"},
	"purges row deletions made at gcBefore":        {mutant{read: purgesRowDeletionsAtGCBefore}, "read_time"},
	"purges complex deletions made at gcBefore":    {mutant{read: purgesComplexDeletionsAtGCBefore}, "read_time"},
	"purges cell tombstones made at gcBefore":      {mutant{read: purgesCellTombstonesAtGCBefore}, "read_time"},
	"drops expired row liveness at gcBefore":       {mutant{read: dropsLivenessExpiredAtGCBefore}, "read_time"},
	"drops the static row of a read by columns":    {mutant{read: dropsStaticOfProjection}, "query_slices"},
	"digests no columns as every column":           {mutant{read: digestsNoColumnsAsAll}, "columns"},
	"appends to the caller's columns":              {mutant{read: appendsToColumns}, "commands_stay_as_given"},
	// Changing a command after Read returned (conformance_kept_mutants_test.go).
	"sorts the last read's columns":          {mutant{read: sortsKeptColumns}, "commands_stay_as_given"},
	"reverses the last read's slices":        {mutant{read: reversesKeptSlices}, "query_slices"},
	"keeps a first write and merges into it": {mutant{apply: keepsFirstWriteMergesInPlace}, "apply_leaves_its_input"},
}

// mergesIntoAnsweredRows merges a write's cells of the same shape as the
// held ones in place: into memory a Read answered with.
func mergesIntoAnsweredRows(r *mapReplica, k [2]string, held, p replica.Partition) error {
	merged, err := repair.Merge(held, p)
	for i, row := range merged.Rows {
		j := slices.IndexFunc(held.Rows, func(h replica.Row) bool { return h.Clustering == row.Clustering })
		if j >= 0 && len(held.Rows[j].Cells) == len(row.Cells) {
			copy(held.Rows[j].Cells, row.Cells)
			merged.Rows[i].Cells = held.Rows[j].Cells
		}
	}
	r.data[k] = merged
	return err
}

// limitEachSlice reads a limited query of several slices one slice at a
// time, each under the whole limit.
// cachesDigests answers whole-partition digest reads from a cache, keyed
// by key, which a write empties.
func cachesDigests(key func(replica.Command) digestKey) func(*mapReplica, replica.Command, replica.Partition) (replica.Response, error) {
	return func(r *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if !cmd.DigestOnly || cmd.Columns != nil || cmd.Query.Slices != nil || cmd.Query.Limit != 0 {
			return cmd.Respond(stored)
		}
		k := key(cmd)
		if resp, ok := r.digests[k]; ok {
			return resp, nil
		}
		resp, err := cmd.Respond(stored)
		if err == nil {
			if r.digests == nil {
				r.digests = map[digestKey]replica.Response{}
			}
			r.digests[k] = resp
		}
		return resp, err
	}
}

func limitEachSlice(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	if len(cmd.Query.Slices) < 2 || cmd.Query.Limit == 0 {
		return cmd.Respond(stored)
	}
	var parts []replica.Partition
	for _, s := range cmd.Query.Slices {
		one := cmd
		one.DigestOnly = false
		one.Query.Slices = []replica.Slice{s}
		resp, err := one.Respond(stored)
		if err != nil {
			return resp, err
		}
		parts = append(parts, resp.Partition)
	}
	merged, err := repair.Merge(parts...)
	if err != nil {
		return replica.Response{}, err
	}
	whole := cmd
	whole.Query = replica.Query{}
	return whole.Respond(merged)
}

// inclusive turns the exclusive ends (or starts) of slices into inclusive
// ones, in a copy.
func inclusive(in []replica.Slice, starts bool) []replica.Slice {
	out := slices.Clone(in)
	for i, s := range out {
		if starts && s.Start == replica.StartAfter(s.Start.Clustering) && s.Start != replica.Bottom() {
			out[i].Start = replica.StartAt(s.Start.Clustering)
		}
		if s.End == replica.EndBefore(s.End.Clustering) && s.End != replica.Top() {
			out[i].End = replica.EndAt(s.End.Clustering)
		}
	}
	return out
}

func mergeInto(r *mapReplica, k [2]string, held, p replica.Partition) error {
	merged, err := repair.Merge(held, p)
	if err != nil {
		return err
	}
	r.data[k] = merged
	return nil
}

// mapCells returns a copy of p with f applied to each of its cells.
func mapCells(p replica.Partition, f func(*replica.Cell)) replica.Partition {
	p = p.Clone()
	rows := []*replica.Row{&p.Static}
	for i := range p.Rows {
		rows = append(rows, &p.Rows[i])
	}
	for _, row := range rows {
		for i := range row.Cells {
			f(&row.Cells[i])
		}
	}
	return p
}

// TestMutantHelper runs the conformance check over every mutant when
// TestConformanceCatchesMutants starts this test binary again.
func TestMutantHelper(t *testing.T) {
	if os.Getenv("REPLICATEST_MUTANTS") != "1" {
		t.Skip("run by TestConformanceCatchesMutants")
	}
	replicatest.SetCallTimeouts(t, 500*time.Millisecond, 100*time.Millisecond)
	for name, m := range mutants {
		t.Run(name, func(t *testing.T) {
			replicatest.TestReplica(t, func(t *testing.T) replica.Replica { return newMapReplica(m.m) })
		})
	}
}

// mutantHints maps mutants to what the check's failure must tell their
// author of the bug.
var mutantHints = map[string]string{
	"keeps what a read purged":        "a store must not keep what a read purged",
	"sends its errors as text":        "errors.As finds no *replica.TombstoneOverwhelmingError",
	"digests at its own version":      "the digest at version 1: digest at the command's DigestVersion",
	"returns its context's cause":     "return ctx.Err(), not context.Cause(ctx)",
	"sorts the last read's columns":   "had its Columns changed from",
	"reverses the last read's slices": "had its Slices changed from",
}

// Each mutant fails the check aimed at its bug, in a child process so that
// the failures do not fail this test.
func TestConformanceCatchesMutants(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestMutantHelper$", "-test.v")
	cmd.Env = append(os.Environ(), "REPLICATEST_MUTANTS=1")
	out, _ := cmd.CombinedOutput()
	for name, m := range mutants {
		line := "--- FAIL: TestMutantHelper/" + strings.ReplaceAll(name, " ", "_") + "/" + m.check + " "
		if !strings.Contains(string(out), line) {
			t.Errorf("mutant %q was not caught: no %q in the output", name, line)
		}
	}
	for name, hint := range mutantHints {
		if !strings.Contains(string(out), hint) {
			t.Errorf("mutant %q's failure does not say %q", name, hint)
		}
	}
	if t.Failed() {
		t.Logf("the child's output:\n%s", out)
	}
}
