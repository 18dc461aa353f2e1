package coordinator

import (
	"errors"
	"fmt"

	"github.com/readpath/readpath/internal/enumname"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
)

// TableOptions are the per-table settings of the read path, like a
// Cassandra table's options. The zero value is Cassandra's default.
//
// In JSON it reads and writes Cassandra's option names and values:
// {"speculative_retry": "99p", "read_repair": "BLOCKING", "strategy":
// "DATA_AND_DIGESTS", "additional_write_policy": "99p",
// "gc_grace_seconds": 864000}, where 0 is no grace, unlike Go's
// GCGraceSeconds. See MarshalJSON and UnmarshalJSON. It is a plain value,
// safe for concurrent reads.
type TableOptions struct {
	// SpeculativeRetry decides when a slow read is hedged. The zero value
	// is the default, 99p.
	SpeculativeRetry latency.SpeculativeRetry `json:"speculative_retry"`
	// ReadRepair is what happens when replicas disagree. The zero value is
	// BLOCKING.
	ReadRepair repair.Mode `json:"read_repair"`
	// Strategy is how replicas are asked. The zero value is DataAndDigests.
	Strategy Strategy `json:"strategy"`
	// AdditionalWritePolicy decides when a BLOCKING read repair whose
	// writes are not all acknowledged also writes to the replicas the read
	// did not contact (Cassandra's additional_write_policy), in the
	// speculative-retry grammar, over how long the table's BLOCKING repair
	// rounds take, from the writes going out to the acknowledgement that
	// completes the level.
	// The zero value is the default, 99p; NEVER turns it off.
	AdditionalWritePolicy latency.SpeculativeRetry `json:"additional_write_policy"`
	// GCGraceSeconds is how long, in seconds, a tombstone must be kept
	// before a read may purge it (Cassandra's gc_grace_seconds): replicas
	// drop tombstones older than the read's time minus it. 0 takes the
	// default, 864000 (ten days); a negative value means none, as
	// gc_grace_seconds = 0 does: tombstones may go as soon as written.
	// In JSON it is Cassandra's value, 0 being none.
	GCGraceSeconds int64 `json:"gc_grace_seconds"`
	// TombstoneWarnThreshold: a read whose replicas met more tombstones than
	// this is counted (TableMetrics.TombstoneWarnings) and flagged in its
	// trace. 0 takes Cassandra's default, 1000; negative: never. JSON reads it
	// as Go does and writes -1 for never.
	TombstoneWarnThreshold int `json:"tombstone_warn_threshold"`
	// TombstoneFailureThreshold: a replica that meets more tombstones than
	// this stops scanning and refuses the read, which then fails with a
	// *replica.TombstoneOverwhelmingError among its reasons. 0 takes
	// Cassandra's default, 100000; negative: no limit. JSON reads it as
	// Go does and writes -1 for no limit.
	TombstoneFailureThreshold int `json:"tombstone_failure_threshold"`
	// NoClusteringColumns says the table's rows have no clustering key, so
	// a partition holds one row at most: short-read protection, which asks
	// a replica for the rows after the last one it returned, never runs
	// for it (CASSANDRA-13880), and a page that returned a partition's row
	// has no paging state, as nothing can follow it. An answer holding a
	// row with a clustering key is its replica's failure (ErrOutsideQuery).
	NoClusteringColumns bool `json:"no_clustering_columns"`
}

// Cassandra's tombstone thresholds.
const (
	defaultTombstoneWarn    = 1000
	defaultTombstoneFailure = 100000
)

// threshold applies a threshold's default: 0 is def, negative is none (0).
func threshold(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// defaultGCGrace is Cassandra's gc_grace_seconds default: ten days.
const defaultGCGrace = 864000

// gcGrace is the table's grace in seconds, defaults applied.
func (o TableOptions) gcGrace() int64 {
	switch {
	case o.GCGraceSeconds == 0:
		return defaultGCGrace
	case o.GCGraceSeconds < 0:
		return 0
	}
	return o.GCGraceSeconds
}

func (o TableOptions) validate() error {
	if !o.Strategy.valid() {
		return fmt.Errorf("Strategy: %w %d", ErrUnknownStrategy, uint8(o.Strategy))
	}
	if !o.ReadRepair.Valid() {
		return fmt.Errorf("ReadRepair: %w %d", repair.ErrUnknownMode, uint8(o.ReadRepair))
	}
	return nil
}

// Strategy is how a read asks its replicas for data. It is a plain value,
// safe for concurrent use.
type Strategy uint8

const (
	// DataAndDigests is Cassandra's strategy: one full data request to the
	// closest replica and digest requests to the others the level needs
	// (two data requests when ALWAYS sends its extra one).
	DataAndDigests Strategy = iota
	// DigestFirst is DataStax Enterprise's: when the level needs more than
	// one replica, every live candidate is asked for a digest first, and
	// once as many have answered as the level needs, the fastest of them is
	// asked for the data. It spends more digest requests to send the one
	// data request where it will be served fastest. A replica asked for
	// both counts twice in a failure's figures: its digest in Received,
	// its failed data request in Failures.
	DigestFirst
)

// ErrUnknownStrategy is wrapped by ParseStrategy's errors, and by
// Strategy.MarshalText's for an undefined Strategy.
var ErrUnknownStrategy = errors.New("coordinator: unknown read strategy")

var strategyNames = [...]string{DataAndDigests: "DATA_AND_DIGESTS", DigestFirst: "DIGEST_FIRST"}

func (s Strategy) valid() bool { return int(s) < len(strategyNames) }

// String returns "DATA_AND_DIGESTS" or "DIGEST_FIRST" (Strategy(n) for an
// undefined Strategy).
func (s Strategy) String() string { return enumname.Of(s, strategyNames[:], "Strategy") }

// ParseStrategy parses a strategy name as String prints it, in any ASCII
// letter case.
func ParseStrategy(s string) (Strategy, error) {
	return enumname.Parse[Strategy](s, strategyNames[:], ErrUnknownStrategy)
}

// MarshalText implements encoding.TextMarshaler with the strategy's name.
// An undefined Strategy is an error wrapping ErrUnknownStrategy.
func (s Strategy) MarshalText() ([]byte, error) {
	return enumname.Marshal(s, strategyNames[:], ErrUnknownStrategy)
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseStrategy. On
// error s is left unchanged.
func (s *Strategy) UnmarshalText(b []byte) error { return enumname.Unmarshal(s, b, ParseStrategy) }
