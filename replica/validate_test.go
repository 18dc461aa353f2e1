package replica_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

func TestValidateAcceptsValidPartitions(t *testing.T) {
	for name, p := range map[string]replica.Partition{
		"zero":       {},
		"sample":     sample(),
		"empty keys": replica.NewPartition("", replica.NewRow("", replica.Live("", "", 0))),
		"zero ttl":   replica.NewPartition("k", replica.NewRow("r", replica.Expiring("c", "v", 1, 0, 0))),
		"deleted":    replica.NewPartition("k").WithDeletion(replica.DeletedAt(-1, 0)),
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
	tests := []struct {
		name               string
		p                  replica.Partition
		clustering, column string
		reason             string
	}{
		{"rows out of order", replica.Partition{Key: "k", Rows: []replica.Row{row("b"), row("a")}}, "a", "", "rows out of order or duplicated"},
		{"duplicate rows", replica.Partition{Key: "k", Rows: []replica.Row{row("a"), row("b"), row("b")}}, "b", "", "rows out of order or duplicated"},
		{"cells out of order", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Live("b", "", 1), replica.Live("a", "", 1))}}, "r", "a", "cells out of order or duplicated"},
		{"duplicate cells", replica.Partition{Key: "k", Rows: []replica.Row{row("r", live, live)}}, "r", "c", "cells out of order or duplicated"},
		{"negative ttl", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Expiring("c", "v", 1, -1, 5))}}, "r", "c", "negative TTL -1"},
		{"tombstone with ttl", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Cell{Column: "c", Tombstone: true, TTL: 5})}}, "r", "c", "tombstone with a TTL"},
		{"tombstone with value", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Cell{Column: "c", Tombstone: true, Value: []byte("v")})}}, "r", "c", "tombstone with a value"},
		{"negative cell ldt", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Tombstone("c", 1, -1))}}, "r", "c", "negative local deletion time"},
		{"negative row ldt", replica.Partition{Key: "k", Rows: []replica.Row{row("r").WithDeletion(replica.DeletedAt(1, -1))}}, "r", "", "negative row local deletion time"},
		{"negative partition ldt", replica.Partition{Key: "k", Deletion: replica.DeletedAt(1, -1)}, "", "", "negative partition local deletion time"},
		{"empty row", replica.Partition{Key: "k", Rows: []replica.Row{{Clustering: "r"}}}, "r", "", "empty row: no cells and no deletion"},
		{"expiring without expiry", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Expiring("c", "v", 1, 5, 0))}}, "r", "c", "expiring cell without an expiry time"},
		{"live cell with ldt", replica.Partition{Key: "k", Rows: []replica.Row{row("r", replica.Cell{Column: "c", Timestamp: 1, LocalDeletionTime: 3})}}, "r", "c", "live cell with a local deletion time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.p.Clone()
			err := tt.p.Validate()
			require.Error(t, err)
			assert.ErrorIs(t, err, replica.ErrInvalidPartition)
			var ve *replica.ValidationError
			require.True(t, errors.As(err, &ve))
			atRow := tt.name != "negative partition ldt"
			assert.Equal(t, replica.ValidationError{Key: "k", Row: atRow, Clustering: tt.clustering, Column: tt.column, Reason: tt.reason}, *ve)
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
	}
	for _, tt := range tests {
		assert.EqualError(t, &tt.err, tt.want)
	}
}
