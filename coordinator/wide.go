package coordinator

import "github.com/readpath/readpath/replica"

// wideBufs is a read's room for a placement of more than inlineReplicas
// replicas (many datacenters, or a large replication factor), kept from
// read to read: such a read grew its endpoints and candidates on the heap
// every time, doubling past 16, 32 and 64 (25 KB a read at ONE over eight
// datacenters of nine replicas).
type wideBufs struct {
	eps   []replica.Endpoint
	reps  []replica.Replica // a DC-local read of a Placement's, however few
	cands []candidate
	dups  dupTables
	used  int // how many of eps and cands the read may have filled
}

// endpoints returns an empty buffer with room for n endpoints.
func (w *wideBufs) endpoints(n int) []replica.Endpoint {
	if cap(w.eps) < n {
		w.eps = make([]replica.Endpoint, 0, n)
	}
	w.used = max(w.used, n)
	return w.eps[:0]
}

// replicas returns an empty buffer with room for n replicas.
func (w *wideBufs) replicas(n int) []replica.Replica {
	if cap(w.reps) < n {
		w.reps = make([]replica.Replica, 0, n)
	}
	w.used = max(w.used, n)
	return w.reps[:0]
}

// candidates returns an empty buffer with room for n candidates.
func (w *wideBufs) candidates(n int) []candidate {
	if cap(w.cands) < n {
		w.cands = make([]candidate, 0, n)
	}
	return w.cands[:0]
}

// clear drops what the buffers refer to (replicas, snitch entries, IDs),
// keeping their arrays: only what the read filled, so that a narrow read
// of a recycled state that once served a wide one clears nothing.
func (w *wideBufs) clear() {
	clear(w.eps[:min(w.used, cap(w.eps))])
	clear(w.reps[:min(w.used, cap(w.reps))])
	clear(w.cands[:min(w.used, cap(w.cands))])
	w.used = 0
}
