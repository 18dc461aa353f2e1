package replicatest

import (
	"fmt"
	"sync/atomic"
)

// Stats counts what a replica received and how it ended. Counts are taken
// when a request arrives (Reads, DataReads, DigestReads, Mutations) or ends
// (the rest), so a request to a Down replica still counts as received.
// A Stats is a plain value, a snapshot, safe for concurrent use.
type Stats struct {
	Reads       int64 // Read calls, data and digest
	DataReads   int64 // Read calls for data
	DigestReads int64 // Read calls for a digest only
	Mutations   int64 // Apply calls
	// Cancellations counts calls that ended with their context's error.
	Cancellations int64
	// Errors counts calls that failed otherwise: down, overloaded, an
	// injected error, an invalid command or mutation, a read past its
	// tombstone failure threshold, a replica NewReplica could not configure.
	Errors int64
	// Overloaded counts the calls among Errors refused by a full queue.
	Overloaded int64
	// Panics counts calls that panicked (the Panics fault).
	Panics int64
	// LateAnswers counts calls that went on past their context's end (the
	// IgnoresContext fault) and answered; one whose read then failed (an
	// invalid command, too many tombstones) counts in Errors too.
	LateAnswers int64
	// InFlight is the number of calls in progress when the snapshot was taken.
	InFlight int64
}

// String renders every count on one line.
func (s Stats) String() string {
	return fmt.Sprintf("reads %d (data %d, digest %d), mutations %d, cancellations %d, errors %d (overloaded %d), panics %d, late %d, in flight %d",
		s.Reads, s.DataReads, s.DigestReads, s.Mutations, s.Cancellations, s.Errors, s.Overloaded, s.Panics, s.LateAnswers, s.InFlight)
}

// Add returns the field-by-field sum of s and o.
func (s Stats) Add(o Stats) Stats {
	return Stats{
		Reads: s.Reads + o.Reads, DataReads: s.DataReads + o.DataReads, DigestReads: s.DigestReads + o.DigestReads,
		Mutations: s.Mutations + o.Mutations, Cancellations: s.Cancellations + o.Cancellations,
		Errors: s.Errors + o.Errors, Overloaded: s.Overloaded + o.Overloaded, Panics: s.Panics + o.Panics,
		LateAnswers: s.LateAnswers + o.LateAnswers, InFlight: s.InFlight + o.InFlight,
	}
}

// counters are the live, atomically updated counts behind Stats.
type counters struct {
	dataReads, digestReads, mutations         atomic.Int64
	cancellations, errors, overloaded, panics atomic.Int64
	lateAnswers, inFlight                     atomic.Int64
}

func (c *counters) snapshot() Stats {
	data, digest := c.dataReads.Load(), c.digestReads.Load()
	return Stats{
		Reads: data + digest, DataReads: data, DigestReads: digest,
		Mutations: c.mutations.Load(), Cancellations: c.cancellations.Load(),
		Errors: c.errors.Load(), Overloaded: c.overloaded.Load(), Panics: c.panics.Load(),
		LateAnswers: c.lateAnswers.Load(), InFlight: c.inFlight.Load(),
	}
}
