package replicatest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// wideWriteGen draws a valid write of key "k" of up to six rows that may
// overlap other writes' rows (and so share a run's rows), with row
// liveness, several cells, row deletions, and now and then a static row,
// range tombstones or a partition deletion; or, rarely, nothing at all.
func wideWriteGen() *rapid.Generator[replica.Partition] {
	return rapid.Custom(func(t *rapid.T) replica.Partition {
		rows := map[string]replica.Row{}
		for range rapid.IntRange(0, 6).Draw(t, "rows") {
			c := rapid.SampledFrom([]string{"a", "b", "c", "d", "e", "f", "g", "h"}).Draw(t, "clustering")
			cells := map[string]replica.Cell{}
			for range rapid.IntRange(1, 3).Draw(t, "cells") {
				cell := writeCell(t)
				cells[cell.Column] = cell
			}
			var cs []replica.Cell
			for _, cell := range cells {
				cs = append(cs, cell)
			}
			row := replica.NewRow(c, cs...)
			switch rapid.IntRange(0, 5).Draw(t, "rowExtra") {
			case 0:
				row = row.WithDeletion(replica.DeletedAt(writeTime.Draw(t, "ts"), writeLocalTime.Draw(t, "ldt")))
			case 1:
				row = row.WithLiveness(replica.Inserted(writeTime.Draw(t, "ts")))
			case 2:
				row = row.WithLiveness(replica.InsertedWithTTL(writeTime.Draw(t, "ts"), 2, writeLocalTime.Draw(t, "expiresAt")+2))
			}
			rows[c] = row
		}
		var rs []replica.Row
		for _, r := range rows {
			rs = append(rs, r)
		}
		p := replica.NewPartition("k", rs...)
		switch rapid.IntRange(0, 7).Draw(t, "extra") {
		case 0:
			p = p.WithDeletion(replica.DeletedAt(writeTime.Draw(t, "ts"), writeLocalTime.Draw(t, "ldt")))
		case 1:
			p = p.WithStatic(writeCell(t))
		case 2:
			from, to := writeClustering.Draw(t, "from"), writeClustering.Draw(t, "to")
			p.RangeTombstones = []replica.RangeTombstone{replica.NewRangeTombstone(
				replica.StartAt(min(from, to)), replica.EndBefore(max(from, to)+"z"),
				replica.DeletedAt(writeTime.Draw(t, "ts"), writeLocalTime.Draw(t, "ldt")))}
		}
		if p.Validate() != nil { // e.g. a row holding only an expired liveness: rare, skip it
			return replica.Partition{Key: "k"}
		}
		return p
	})
}

// wideSeed draws a seed of up to 150 rows, so that Apply's fold waits for
// as many writes as the seed has rows, not minFold.
func wideSeed(t *rapid.T) replica.Partition {
	p := wideWriteGen().Draw(t, "seedHead")
	for i := range rapid.IntRange(0, 150).Draw(t, "seedRows") {
		p.Rows = append(p.Rows, replica.NewRow(fmt.Sprintf("s%03d", i), replica.Live("x", "1", 1)))
	}
	return p
}

// readGen draws any read of "k": columns, slices (reversed), limits, digest
// versions, read times and tombstone thresholds; half of each the whole
// partition's, so that the stored digest answer is often the one asked for.
func readGen(t *rapid.T) replica.Command {
	cmd := replica.Command{Table: "t", Key: "k", DigestOnly: rapid.Bool().Draw(t, "digest")}
	switch rapid.IntRange(0, 5).Draw(t, "columns") {
	case 1:
		cmd.Columns = []string{}
	case 2:
		cmd.Columns = []string{"x"}
	case 3:
		cmd.Columns = []string{"x", "y"}
	}
	switch rapid.IntRange(0, 5).Draw(t, "slices") {
	case 1:
		cmd.Query.Slices = []replica.Slice{}
	case 2:
		cmd.Query.Slices = []replica.Slice{{Start: replica.StartAt("b"), End: replica.EndAt("d")}}
	case 3:
		cmd.Query.Slices = []replica.Slice{{Start: replica.Bottom(), End: replica.EndBefore("b")}, {Start: replica.StartAfter("e"), End: replica.Top()}}
	}
	cmd.Query.Reversed = rapid.Bool().Draw(t, "reversed")
	cmd.Query.Limit = max(0, rapid.IntRange(-3, 3).Draw(t, "limit"))
	cmd.DigestVersion = byte(rapid.IntRange(0, int(digest.Latest)).Draw(t, "version"))
	cmd.NowInSec = rapid.Int64Range(0, 6).Draw(t, "now")
	cmd.GCBefore = rapid.Int64Range(0, cmd.NowInSec).Draw(t, "gcBefore")
	cmd.TombstoneFailureThreshold = rapid.IntRange(0, 8).Draw(t, "threshold")
	return cmd
}

// Any read of a replica, of any digest build, answers what Respond gives
// from the merge of every write on arrival, whatever the writes hold and
// however many rows the seed has; so does Partition.
func TestAnyReadAnswersAsIfMergedOnArrival(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ctx := context.Background()
		maxDigest := digest.Latest
		if rapid.IntRange(0, 3).Draw(t, "olderBuild") == 0 {
			maxDigest = byte(rapid.IntRange(int(digest.V1), int(digest.Latest)).Draw(t, "maxDigest"))
		}
		r := NewReplica(replica.Endpoint{ID: "a"}, WithMaxDigestVersion(maxDigest))
		model := replica.Partition{Key: "k"}
		seeded := rapid.Bool().Draw(t, "seeded")
		if seeded {
			model = wideSeed(t)
			if err := r.Seed("t", model); err != nil {
				t.Fatal(err)
			}
		}
		readOdds := rapid.IntRange(1, 100).Draw(t, "readOdds")
		for i := range rapid.IntRange(0, 300).Draw(t, "ops") {
			if rapid.IntRange(0, readOdds).Draw(t, "read") > 0 {
				w := wideWriteGen().Draw(t, "write")
				if err := r.Apply(ctx, replica.Mutation{Table: "t", Partition: w}); err != nil {
					t.Fatal(err)
				}
				var err error
				if model, err = repair.Merge(model, w); err != nil {
					t.Fatal(err)
				}
				seeded = true
				continue
			}
			cmd := readGen(t)
			got, err := r.Read(ctx, cmd)
			asked := cmd
			var refused error // an older build's refusal of a newer version
			if v := cmd.DigestVersion; cmd.DigestOnly && maxDigest < digest.Latest {
				if v == 0 {
					asked.DigestVersion = maxDigest
				} else if v > maxDigest {
					refused = &replica.CommandError{Reason: "digest version", Err: &digest.VersionError{Version: v, Known: maxDigest}}
				}
			}
			held := model
			if !seeded {
				held = replica.Partition{}
			}
			want, wantErr := asked.Respond(held)
			if refused != nil {
				want, wantErr = replica.Response{}, refused
			}
			if (err == nil) != (wantErr == nil) || err != nil && !errors.Is(err, wantErr) && errors.Unwrap(err).Error() != wantErr.Error() {
				t.Fatalf("op %d: %+v: error %v; want %v", i, cmd, err, wantErr)
			}
			if got.Digest != want.Digest || !got.Partition.Equal(want.Partition) || got.Tombstones != want.Tombstones {
				t.Fatalf("op %d: %+v answers %+v; want %+v", i, cmd, got, want)
			}
		}
		if got, held := r.Partition("t", "k"); held != seeded || held && !got.Equal(model) {
			t.Fatalf("holds %+v (%v); want %+v", got, held, model)
		}
	})
}
