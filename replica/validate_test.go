package replica_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

func TestValidateAcceptsValidPartitions(t *testing.T) {
	for name, p := range map[string]replica.Partition{
		"key only":      {Key: "k"},
		"sample":        sample(),
		"empty keys":    replica.NewPartition("k", replica.NewRow("", replica.Live("", "", 0))),
		"zero ttl":      replica.NewPartition("k", replica.NewRow("r", replica.Expiring("c", "v", 1, 0, 0))),
		"deleted":       replica.NewPartition("k").WithDeletion(replica.DeletedAt(-1, 0)),
		"liveness only": replica.NewPartition("k", replica.NewRow("r").WithLiveness(replica.Inserted(1))),
		"complex deletion only": replica.NewPartition("k",
			replica.NewRow("r").WithComplexDeletion("m", replica.DeletedAt(1, 1))),
		"static only": replica.NewPartition("k").WithStatic(replica.Live("s", "v", 1)),
		"touching ranges": replica.NewPartition("k").WithRangeTombstones(
			replica.NewRangeTombstone(replica.Bottom(), replica.EndBefore("b"), replica.DeletedAt(1, 1)),
			replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("c"), replica.DeletedAt(2, 1)),
			replica.NewRangeTombstone(replica.StartAfter("c"), replica.Top(), replica.DeletedAt(1, 1))),
		"one-key range": replica.NewPartition("k").WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("a"), replica.DeletedAt(1, 1))),
		"touching at a successor": replica.NewPartition("k").WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("a"), replica.DeletedAt(1, 1)),
			replica.NewRangeTombstone(replica.StartAt("a\x00"), replica.Top(), replica.DeletedAt(1, 1))),
	} {
		assert.NoError(t, p.Validate(), name)
	}
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		assert.NoError(t, p.Validate())
	})
}

func TestValidateRejects(t *testing.T) {
	live := replica.Live("c", "v", 1)
	row := func(clustering string, cells ...replica.Cell) replica.Row {
		if len(cells) == 0 {
			cells = []replica.Cell{live}
		}
		return replica.Row{Clustering: clustering, Cells: cells}
	}
	at := func(clustering, column, reason string) replica.ValidationError {
		return replica.ValidationError{Key: "k", Row: true, Clustering: clustering, Column: column, Reason: reason}
	}
	inRange := func(i int, reason string) replica.ValidationError {
		return replica.ValidationError{Key: "k", Range: true, RangeIndex: i, Reason: reason}
	}
	inStatic := func(column, reason string) replica.ValidationError {
		return replica.ValidationError{Key: "k", Static: true, Column: column, Reason: reason}
	}
	withRanges := func(rts ...replica.RangeTombstone) replica.Partition {
		return replica.Partition{Key: "k", RangeTombstones: rts}
	}
	d := replica.DeletedAt(1, 1)
	tests := []struct {
		name string
		p    replica.Partition
		want replica.ValidationError
	}{
		{"zero", replica.Partition{}, replica.ValidationError{Reason: "empty partition key"}},
		{"empty partition key", replica.NewPartition("", replica.NewRow("r", live)), replica.ValidationError{Reason: "empty partition key"}},
		{"rows out of order", replica.Partition{Key: "k", Rows: []replica.Row{row("b"), row("a")}}, at("a", "", "rows out of order or duplicated")},
		{"duplicate rows", replica.Partition{Key: "k", Rows: []replica.Row{row("a"), row("b"), row("b")}}, at("b", "", "rows out of order or duplicated")},
		{"cells out of order", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Live("b", "", 1), replica.Live("a", "", 1))}}, at("r", "a", "cells out of order or duplicated")},
		{"duplicate cells", replica.Partition{Key: "k", Rows: []replica.Row{row("r", live, live)}}, at("r", "c", "cells out of order or duplicated")},
		{"paths out of order", replica.Partition{Key: "k", Rows: []replica.Row{row("r", live.WithPath("b"), live.WithPath("a"))}},
			replica.ValidationError{Key: "k", Row: true, Clustering: "r", Column: "c", Path: "a", Reason: "cells out of order or duplicated"}},
		{"negative ttl", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Expiring("c", "v", 1, -1, 5))}}, at("r", "c", "negative TTL -1")},
		{"tombstone with ttl", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Cell{Column: "c", Tombstone: true, TTL: 5})}}, at("r", "c", "tombstone with a TTL")},
		{"tombstone with value", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Cell{Column: "c", Tombstone: true, Value: []byte("v")})}}, at("r", "c", "tombstone with a value")},
		{"negative cell ldt", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Tombstone("c", 1, -1))}}, at("r", "c", "negative local deletion time")},
		{"negative row ldt", replica.Partition{Key: "k", Rows: []replica.Row{row("r").WithDeletion(replica.DeletedAt(1, -1))}}, at("r", "", "negative row local deletion time")},
		{"negative partition ldt", replica.Partition{Key: "k", Deletion: replica.DeletedAt(1, -1)}, replica.ValidationError{Key: "k", Reason: "negative partition local deletion time"}},
		{"empty row", replica.Partition{Key: "k", Rows: []replica.Row{{Clustering: "r"}}}, at("r", "", "empty row: no cells, liveness or deletions")},
		{"expiring without expiry", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Expiring("c", "v", 1, 5, 0))}}, at("r", "c", "expiring cell without an expiry time")},
		{"expiring before its ttl", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Expiring("c", "v", 1, 5, 3))}}, at("r", "c", "expiring cell with expiry 3 less than its TTL 5: written before the epoch")},
		{"live cell with ldt", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Cell{Column: "c", Timestamp: 1, LocalDeletionTime: 3})}}, at("r", "c", "live cell with a local deletion time")},
		{"liveness negative ttl", replica.NewPartition("k", row("r").WithLiveness(replica.InsertedWithTTL(1, -1, 5))), at("r", "", "liveness with negative TTL -1")},
		{"liveness without expiry", replica.NewPartition("k", row("r").WithLiveness(replica.InsertedWithTTL(1, 5, 0))), at("r", "", "expiring liveness without an expiry time")},
		{"liveness expiry without ttl", replica.NewPartition("k", row("r").WithLiveness(replica.InsertedWithTTL(1, 0, 5))), at("r", "", "liveness with an expiry time but no TTL")},
		{"liveness negative expiry", replica.NewPartition("k", row("r").WithLiveness(replica.InsertedWithTTL(1, 5, -5))), at("r", "", "liveness with a negative expiry")},
		{"view's expired liveness", replica.NewPartition("k", row("r").WithLiveness(replica.InsertedWithTTL(1, math.MaxInt32, 5))),
			at("r", "", "liveness with TTL 2147483647, a materialized view's expired liveness: not supported")},
		{"complex deletions out of order", replica.NewPartition("k", replica.Row{Clustering: "r", ComplexDeletions: []replica.ComplexDeletion{{Column: "b", Deletion: d}, {Column: "a", Deletion: d}}}),
			at("r", "a", "complex deletions out of order or duplicated")},
		{"empty complex deletion", replica.NewPartition("k", replica.Row{Clustering: "r", ComplexDeletions: []replica.ComplexDeletion{{Column: "m"}}}),
			at("r", "m", "complex deletion that deletes nothing")},
		{"negative complex ldt", replica.NewPartition("k", row("r").WithComplexDeletion("m", replica.DeletedAt(1, -1))),
			at("r", "m", "negative complex deletion local deletion time")},
		{"static clustering", replica.Partition{Key: "k", Static: row("s")},
			replica.ValidationError{Key: "k", Static: true, Reason: `static row with clustering key "s"`}},
		{"static liveness", replica.Partition{Key: "k", Static: replica.Row{Liveness: replica.Inserted(1)}},
			replica.ValidationError{Key: "k", Static: true, Reason: "static row with liveness: static cells have no primary-key liveness"}},
		{"static deletion", replica.Partition{Key: "k", Static: replica.Row{Deletion: d}},
			replica.ValidationError{Key: "k", Static: true, Reason: "static row with a row deletion: static cells are deleted by cell tombstones, complex deletions and the partition deletion"}},
		{"static cell", replica.NewPartition("k").WithStatic(replica.Tombstone("s", 1, -1)), inStatic("s", "negative local deletion time")},
		{"range starting with an end", withRanges(replica.NewRangeTombstone(replica.EndAt("a"), replica.Top(), d)),
			inRange(0, `range tombstone starting with "a"], not a start bound`)},
		{"range ending with a start", withRanges(replica.NewRangeTombstone(replica.Bottom(), replica.StartAt("a"), d)),
			inRange(0, `range tombstone ending with ["a", not an end bound`)},
		{"open bound with a key", withRanges(replica.NewRangeTombstone(replica.Bound{Clustering: "a"}, replica.Top(), d)),
			inRange(0, "open bound with a clustering key")},
		{"empty range", withRanges(replica.NewRangeTombstone(replica.StartAt("b"), replica.EndBefore("b"), d)),
			inRange(0, `range tombstone ["b", "b") covers no clustering key`)},
		{"reversed range", withRanges(replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("a"), d)),
			inRange(0, `range tombstone ["b", "a"] covers no clustering key`)},
		{"empty range at a successor", withRanges(replica.NewRangeTombstone(replica.StartAfter("a"), replica.EndBefore("a\x00"), d)),
			inRange(0, `range tombstone ("a", "a\x00") covers no clustering key`)},
		{"range deleting nothing", withRanges(replica.NewRangeTombstone(replica.Bottom(), replica.Top(), replica.Deletion{})),
			inRange(0, "range tombstone that deletes nothing")},
		{"negative range ldt", withRanges(replica.NewRangeTombstone(replica.Bottom(), replica.Top(), replica.DeletedAt(1, -1))),
			inRange(0, "negative range tombstone local deletion time")},
		{"overlapping ranges", withRanges(replica.NewRangeTombstone(replica.Bottom(), replica.EndAt("b"), d), replica.NewRangeTombstone(replica.StartAt("b"), replica.Top(), d)),
			inRange(1, "range tombstones out of order or overlapping")},
		{"ranges out of order", withRanges(replica.NewRangeTombstone(replica.StartAt("c"), replica.Top(), d), replica.NewRangeTombstone(replica.Bottom(), replica.EndAt("a"), d)),
			inRange(1, "range tombstones out of order or overlapping")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.p.Clone()
			err := tt.p.Validate()
			require.Error(t, err)
			assert.ErrorIs(t, err, replica.ErrInvalidPartition)
			var ve *replica.ValidationError
			require.True(t, errors.As(err, &ve))
			assert.Equal(t, tt.want, *ve)
			assert.True(t, tt.p.Equal(before), "Validate must not change the partition")
		})
	}
}

func TestValidationErrorSaysWhere(t *testing.T) {
	tests := []struct {
		err  replica.ValidationError
		want string
	}{
		{replica.ValidationError{Key: "k", Reason: "why"}, `replica: invalid partition "k": why`},
		{replica.ValidationError{Key: "k", Row: true, Clustering: "r", Reason: "why"}, `replica: invalid partition "k" row "r": why`},
		{replica.ValidationError{Key: "k", Row: true, Clustering: "r", Column: "c", Reason: "why"}, `replica: invalid partition "k" row "r" column "c": why`},
		{replica.ValidationError{Key: "k", Row: true, Column: "c", Reason: "why"}, `replica: invalid partition "k" row "" column "c": why`},
		{replica.ValidationError{Key: "k", Row: true, Reason: "why"}, `replica: invalid partition "k" row "": why`},
		{replica.ValidationError{Key: "k", Row: true, Clustering: "r", Column: "m", Path: "x", Reason: "why"}, `replica: invalid partition "k" row "r" column "m" path "x": why`},
		{replica.ValidationError{Key: "k", Static: true, Column: "s", Reason: "why"}, `replica: invalid partition "k" static row column "s": why`},
		{replica.ValidationError{Key: "k", Range: true, RangeIndex: 2, Reason: "why"}, `replica: invalid partition "k" range tombstone 2: why`},
	}
	for _, tt := range tests {
		assert.EqualError(t, &tt.err, tt.want)
	}
}

// Two complex deletions of one column in a row are a duplicate, refused as
// one out of order is: Validate's doc asks for complex deletions "strictly
// by column name; so no key repeats".
func TestValidateRejectsADuplicatedComplexDeletion(t *testing.T) {
	d := replica.DeletedAt(1, 1)
	for name, p := range map[string]replica.Partition{
		"row": replica.NewPartition("k", replica.Row{Clustering: "r",
			ComplexDeletions: []replica.ComplexDeletion{{Column: "m", Deletion: d}, {Column: "m", Deletion: replica.DeletedAt(2, 1)}}}),
		"static": {Key: "k", Static: replica.Row{
			ComplexDeletions: []replica.ComplexDeletion{{Column: "m", Deletion: d}, {Column: "m", Deletion: d}}}},
	} {
		err := p.Validate()
		assert.ErrorIs(t, err, replica.ErrInvalidPartition, name)
		var ve *replica.ValidationError
		if assert.True(t, errors.As(err, &ve), name) {
			assert.Equal(t, "complex deletions out of order or duplicated", ve.Reason, name)
			assert.Equal(t, "m", ve.Column, name)
		}
		_, err = p.ValidateDigest(0)
		assert.ErrorIs(t, err, replica.ErrInvalidPartition, name)
	}
}
