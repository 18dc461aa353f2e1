package coordinator

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/typednil"
	"github.com/readpath/readpath/replica"
)

// ErrBadPlacement is wrapped by the errors of a read whose locator answered
// something unusable: no replicas, a nil replica, one whose endpoint has an
// empty ID, a replica ID listed twice, more replicas than the replication's
// total factor or, in the local datacenter, than its factor there (or in
// any datacenter, for a read at a level that is not DC-local), or an
// invalid replication.
var ErrBadPlacement = errors.New("coordinator: bad placement")

// checkPlacement validates the locator's answer before anything is sent;
// replica i's endpoint is eps[i]. Placements of more than inlineReplicas
// are checked in spill's tables. With coordinated, the replicas in localDC
// are checked against its factor too ("" is the datacenter of replicas
// without one); NewPlacement, which no coordinator reads yet, checks none.
func checkPlacement(reps []replica.Replica, eps []replica.Endpoint, repl consistency.Replication, localDC string, coordinated bool, spill *dupTables) error {
	if err := repl.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrBadPlacement, err)
	}
	if len(reps) == 0 {
		return fmt.Errorf("%w: no replicas (does its replication name a datacenter without nodes?)", ErrBadPlacement)
	}
	if len(reps) > repl.Total() {
		return fmt.Errorf("%w: %d replicas for a replication of %d (a read asks only the natural replicas, not pending ones)", ErrBadPlacement, len(reps), repl.Total())
	}
	local := 0
	for i, r := range reps {
		if eps[i].Datacenter == localDC {
			local++
		}
		switch {
		case eps[i].ID != "": // endpoints asked it: neither nil nor a nil pointer
		case r == nil:
			return fmt.Errorf("%w: replica %d is nil", ErrBadPlacement, i)
		case typednil.Holds(r):
			return fmt.Errorf("%w: replica %d is a nil %T", ErrBadPlacement, i, r)
		default: // the snitch, backlog and metrics know a replica by its ID
			return fmt.Errorf("%w: replica %d (%T) has an empty endpoint ID", ErrBadPlacement, i, r)
		}
	}
	if id, ok := listedTwice(eps, spill); ok {
		return fmt.Errorf("%w: replica %q listed twice", ErrBadPlacement, id)
	}
	// A DC-local level reads the local datacenter alone: more replicas
	// there than its factor, or any at a factor of 0, would answer for
	// replicas that are elsewhere. A coordinator without a datacenter
	// reads replicas without one as local: NetworkTopology, which names
	// every datacenter, gives them a factor of 0.
	if coordinated && local > repl.Factor(localDC) {
		return tooManyLocal(local, localDC, repl)
	}
	return nil
}

// overListed returns a datacenter where eps lists more replicas than
// repl's factor there, and how many it lists; n is 0 if none does. A read
// at a level that is not DC-local counts every datacenter's replicas (as
// EACH_QUORUM counts a quorum of each), so an extra one, holding none of
// the data, would answer for the one that does. Under Simple, whose
// factor in any datacenter is the total, none does.
func overListed(eps []replica.Endpoint, repl consistency.Replication) (dc string, n int) {
	if repl.IsSimple() {
		return "", 0
	}
	type count struct {
		dc string
		n  int
	}
	var room [16]count // on the stack: a read over up to 16 datacenters allocates nothing for it
	counts := room[:0]
	j := 0 // the last replica's datacenter: replicas of one often follow each other
	for i := range eps {
		name := eps[i].Datacenter
		if j >= len(counts) || counts[j].dc != name {
			for j = 0; j < len(counts) && counts[j].dc != name; j++ {
			}
			if j == len(counts) {
				counts = append(counts, count{name, 0})
			}
		}
		counts[j].n++
	}
	for _, c := range counts {
		if c.n > repl.Factor(c.dc) {
			return c.dc, c.n
		}
	}
	return "", 0
}

// tooMany is the error of a placement with n replicas in datacenter dc,
// more than its factor there, read at level, which counts them.
func tooMany(n int, dc string, repl consistency.Replication, level consistency.Level) error {
	return fmt.Errorf("%w: %d replicas in the datacenter %q for a factor of %d, which a read at %v counts", ErrBadPlacement, n, dc, repl.Factor(dc), level)
}

// tooManyLocal is the error of a placement with n replicas in the local
// datacenter dc, more than its factor there.
func tooManyLocal(n int, dc string, repl consistency.Replication) error {
	if dc == "" {
		return fmt.Errorf("%w: %d replicas without a datacenter, local to a coordinator without Config.LocalDatacenter, where %v places none", ErrBadPlacement, n, repl)
	}
	return fmt.Errorf("%w: %d replicas in the local datacenter %q for a factor of %d", ErrBadPlacement, n, dc, repl.Factor(dc))
}

// listedTwice returns an ID that eps lists twice, if any, comparing only
// IDs of equal fingerprints. A summary of an ID's length and last bytes
// told apart none of the "10.0.x.y:9042" IDs real clusters use, and
// comparing every pair of them was 2,556 string comparisons a read over
// 72 replicas. Up to inlineReplicas IDs, every pair of fingerprints is
// compared (at most 120, cheaper than a table); beyond, a table in spill
// finds equal ones in O(n).
func listedTwice(eps []replica.Endpoint, spill *dupTables) (string, bool) {
	if len(eps) > inlineReplicas {
		return listedTwiceWide(eps, spill)
	}
	var fs [inlineReplicas]uint64
	for i := range eps {
		id := eps[i].ID
		fp := fingerprint(id)
		for j, o := range fs[:i] {
			if o == fp && eps[j].ID == id {
				return id, true
			}
		}
		fs[i] = fp
	}
	return "", false
}

// listedTwiceWide is listedTwice over more than inlineReplicas IDs: each
// ID's fingerprint goes into an open-addressed table of indexes.
func listedTwiceWide(eps []replica.Endpoint, spill *dupTables) (string, bool) {
	fps, slots, bits := spill.sized(len(eps))
	mask := len(slots) - 1
	for i := range eps {
		id := eps[i].ID
		fp := fingerprint(id)
		fps[i] = fp
		for s := int(fp * 0x9e3779b97f4a7c15 >> (64 - bits)); ; s = (s + 1) & mask {
			j := slots[s] - 1 // slots hold an index plus one; 0 is empty
			if j < 0 {
				slots[s] = int32(i + 1)
				break
			}
			if fps[j] == fp && eps[j].ID == id {
				return id, true
			}
		}
	}
	return "", false
}

// fingerprint summarises an ID in a word: equal IDs have equal ones. An ID
// of up to seven bytes is its own; a longer one's mixes its length and
// its first, middle and last eight bytes, where names and addresses differ.
func fingerprint(id string) uint64 {
	n := len(id)
	if n < 8 {
		fp := uint64(n)
		for i := range n {
			fp |= uint64(id[i]) << (8 * (i + 1))
		}
		return fp
	}
	return uint64(n) ^ word(id, 0) ^ bits.RotateLeft64(word(id, n/2-4), 21) ^ bits.RotateLeft64(word(id, n-8), 42)
}

// word reads the eight bytes of s from i, little-endian.
func word(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// dupTables is listedTwice's room for a placement of more than
// inlineReplicas IDs, kept from read to read.
type dupTables struct {
	fps   []uint64
	slots []int32
}

// sized returns room for n fingerprints and an empty table of 1<<bits
// slots, at least 2n.
func (d *dupTables) sized(n int) (fps []uint64, slots []int32, bits int) {
	if cap(d.fps) < n {
		d.fps = make([]uint64, n)
	}
	for bits = 1; 1<<bits < 2*n; bits++ {
	}
	if cap(d.slots) < 1<<bits {
		d.slots = make([]int32, 1<<bits)
	}
	slots = d.slots[:1<<bits]
	clear(slots)
	return d.fps[:n], slots, bits
}

// endpoints asks each replica for its endpoint once, into buf; a nil
// replica, or a nil pointer in the interface, whose Endpoint would crash,
// gets the zero endpoint, for checkPlacement to reject. A replica whose
// Endpoint panics fails the read with ErrBadPlacement: it is that
// replica's fault, and under ReadMany the panic would end the process.
// Replica i is replica at[i] of its placement, if at is not nil (a
// DC-local read of a Placement's local replicas), as the error says.
func endpoints(reps []replica.Replica, buf []replica.Endpoint, at []int32) (eps []replica.Endpoint, err error) {
	i := 0
	defer func() {
		if v := recover(); v != nil {
			n := i
			if at != nil {
				n = int(at[i])
			}
			err = replicaPanicked(n, reps[i], "Endpoint", v)
		}
	}()
	for ; i < len(reps); i++ {
		var ep replica.Endpoint
		if r := reps[i]; r != nil && !typednil.Holds(r) {
			ep = r.Endpoint()
		}
		buf = append(buf, ep)
	}
	return buf, nil
}

// replicaPanicked is the error of a read whose placement holds replica i,
// r, whose method panicked with v during planning. It wraps ErrBadPlacement
// and, if v is an error, v.
func replicaPanicked(i int, r replica.Replica, method string, v any) error {
	if err, ok := v.(error); ok && typednil.Find(err) == nil {
		return fmt.Errorf("%w: replica %d (a %T): %s panicked: %w", ErrBadPlacement, i, r, method, err)
	}
	return fmt.Errorf("%w: replica %d (a %T): %s panicked: %v", ErrBadPlacement, i, r, method, v)
}
