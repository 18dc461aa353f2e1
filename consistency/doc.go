// Package consistency holds the arithmetic of replicated reads and writes:
// consistency levels with Cassandra's protocol codes, how many replicas a
// level must hear from (its blockFor), the availability check that runs
// before any request is sent, and the typed errors a read or write ends with.
//
// Everything here is a pure function of small values: no clocks, no I/O.
//
//	r := consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})
//	if err := r.Validate(); err != nil { ... }
//	need := consistency.LocalQuorum.BlockFor(r, "dc1") // 2
//	if err := consistency.AssureSufficientLive(consistency.LocalQuorum, r, "dc1",
//		map[string]int{"dc1": 1}); err != nil {
//		var u *consistency.UnavailableError
//		errors.As(err, &u) // u.Required == 2, u.Alive == 1
//	}
//
// The error types carry the numbers a retry policy needs (see package
// coordinator/retry) and are matched with errors.As.
package consistency
