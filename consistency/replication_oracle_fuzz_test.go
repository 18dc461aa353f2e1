package consistency_test

import (
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/readpath/readpath/consistency"
)

// FuzzReplicationOracle builds a replication from fuzzed factors (Simple, or
// NetworkTopology over up to four datacenters, valid or not) and checks it
// against a plain reading of the godocs: Validate refuses exactly an empty
// name, a negative factor, a sum past MaxInt or no replica at all; Total,
// Factor, Datacenters and String agree with the factors; BlockFor is
// Cassandra's formula; EachQuorumFor has the majority of every datacenter
// holding replicas; and AssureSufficientLive returns nil, a
// *UnavailableError with the documented figures, or the documented typed
// error, as the oracle says.
func FuzzReplicationOracle(f *testing.F) {
	f.Add(true, int64(3), int64(0), int64(0), int64(0), uint8(4), uint8(0), []byte{1, 2, 3})
	f.Add(false, int64(3), int64(2), int64(0), int64(-1), uint8(7), uint8(1), []byte{2, 2, 0})
	f.Add(false, int64(3), int64(2), int64(1), int64(-2), uint8(6), uint8(3), []byte{1, 1, 1, 1})
	f.Add(false, int64(math.MaxInt64), int64(1), int64(-2), int64(-2), uint8(5), uint8(0), []byte{})
	f.Add(false, int64(0), int64(0), int64(-2), int64(-2), uint8(1), uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, simple bool, a, b, c, d int64, level, local uint8, live []byte) {
		names := []string{"dc1", "dc2", "", "dc3"}
		var r consistency.Replication
		factors := map[string]int{}
		var want string // why the replication is invalid, "" if it is not
		if simple {
			r = consistency.Simple(int(a))
			if a <= 0 {
				want = "factor"
			}
		} else {
			// -2 leaves a datacenter out; -1 and below are kept as negative.
			for i, v := range []int64{a, b, c, d} {
				if v != -2 {
					factors[names[i]] = int(v)
				}
			}
			r = consistency.NetworkTopology(factors)
			total, overflow := 0, false
			for dc, v := range factors {
				if dc == "" {
					want = "empty name"
				}
				if v < 0 && want == "" {
					want = "negative"
				}
				if v > 0 && total > math.MaxInt-v {
					overflow = true
				}
				total += v
			}
			if want == "" && overflow {
				want = "overflow"
			}
			if want == "" && total <= 0 {
				want = "no replica"
			}
		}
		err := r.Validate()
		if (err != nil) != (want != "") || err != nil && !errors.Is(err, consistency.ErrInvalidReplication) {
			t.Fatalf("%v (factors %v, simple %v %d).Validate() = %v, oracle: %q", r, factors, simple, a, err, want)
		}
		l := consistency.Level(level % 12)
		localDC := []string{"dc1", "dc2", "", "dc3", "nowhere"}[int(local)%5]
		liveBy := map[string]int{}
		for i, n := range live {
			if i >= 5 {
				break
			}
			liveBy[[]string{"dc1", "dc2", "", "dc3", "nowhere"}[i]] = int(n % 16)
		}
		aerr := consistency.AssureSufficientLive(l, r, localDC, liveBy)
		if want != "" {
			if !errors.Is(aerr, consistency.ErrInvalidReplication) {
				t.Fatalf("AssureSufficientLive under invalid %v: %v", r, aerr)
			}
			return
		}
		// Valid replication: check the accessors.
		total := int(a)
		factor := func(dc string) int { return int(a) }
		if !simple {
			total = 0
			for _, v := range factors {
				total += v
			}
			factor = func(dc string) int { return factors[dc] }
		}
		if r.Total() != total {
			t.Fatalf("%v.Total() = %d, want %d", r, r.Total(), total)
		}
		for _, dc := range []string{"dc1", "dc2", "dc3", "", "nowhere"} {
			if dc == "" && !simple {
				continue
			}
			if got := r.Factor(dc); got != factor(dc) {
				t.Fatalf("%v.Factor(%q) = %d, want %d", r, dc, got, factor(dc))
			}
		}
		if r.IsSimple() != simple {
			t.Fatalf("%v.IsSimple() = %v", r, r.IsSimple())
		}
		if !simple {
			dcs := r.Datacenters()
			if len(dcs) != len(factors) || !sort.SliceIsSorted(dcs, func(i, j int) bool { return dcs[i].Datacenter < dcs[j].Datacenter }) {
				t.Fatalf("%v.Datacenters() = %v, factors %v", r, dcs, factors)
			}
			parts := []string{}
			for _, x := range dcs {
				if factors[x.Datacenter] != x.Factor {
					t.Fatalf("%v.Datacenters() = %v, factors %v", r, dcs, factors)
				}
				parts = append(parts, x.Datacenter+":"+strconv.Itoa(x.Factor))
			}
			if s := "NetworkTopology(" + strings.Join(parts, ", ") + ")"; r.String() != s {
				t.Fatalf("String() = %q, want %q", r.String(), s)
			}
		} else if r.String() != "Simple("+strconv.Itoa(int(a))+")" {
			t.Fatalf("String() = %q", r.String())
		}
		// BlockFor, Cassandra's formulas.
		q := func(n int) int { return n/2 + 1 }
		each := 0
		eachMap := map[string]int{}
		if simple {
			each = q(total)
		} else {
			for dc, v := range factors {
				if v > 0 {
					each += q(v)
					eachMap[dc] = q(v)
				}
			}
		}
		var bf int
		switch l {
		case consistency.Any, consistency.One, consistency.LocalOne:
			bf = 1
		case consistency.Two:
			bf = 2
		case consistency.Three:
			bf = 3
		case consistency.Quorum, consistency.Serial:
			bf = q(total)
		case consistency.All:
			bf = total
		case consistency.LocalQuorum, consistency.LocalSerial:
			bf = q(factor(localDC))
		case consistency.EachQuorum:
			bf = each
		}
		if got := l.BlockFor(r, localDC); got != bf {
			t.Fatalf("%v.BlockFor(%v, %q) = %d, want %d", l, r, localDC, got, bf)
		}
		em := consistency.EachQuorumFor(r)
		if simple != (em == nil) || len(em) != len(eachMap) && !simple {
			t.Fatalf("EachQuorumFor(%v) = %v, want %v", r, em, eachMap)
		}
		for dc, n := range eachMap {
			if em[dc] != n {
				t.Fatalf("EachQuorumFor(%v) = %v, want %v", r, em, eachMap)
			}
		}
		// AssureSufficientLive.
		if !l.Valid() {
			if !errors.Is(aerr, consistency.ErrUnknownLevel) {
				t.Fatalf("AssureSufficientLive(%d): %v, want ErrUnknownLevel", l, aerr)
			}
			return
		}
		sum := 0
		for _, n := range liveBy {
			sum += n
		}
		var wantErr *consistency.UnavailableError
		switch {
		case l == consistency.Any:
		case l.IsDatacenterLocal():
			if liveBy[localDC] < bf {
				wantErr = &consistency.UnavailableError{Level: l, Required: bf, Alive: liveBy[localDC], Datacenter: localDC}
			}
		case l == consistency.EachQuorum && !simple:
			dcs := r.Datacenters()
			for _, x := range dcs {
				if x.Factor > 0 && liveBy[x.Datacenter] < q(x.Factor) {
					wantErr = &consistency.UnavailableError{Level: l, Required: q(x.Factor), Alive: liveBy[x.Datacenter], Datacenter: x.Datacenter}
					break
				}
			}
		default:
			if sum < bf {
				wantErr = &consistency.UnavailableError{Level: l, Required: bf, Alive: sum}
			}
		}
		if wantErr == nil {
			if aerr != nil {
				t.Fatalf("AssureSufficientLive(%v, %v, %q, %v) = %v, want nil", l, r, localDC, liveBy, aerr)
			}
			return
		}
		var ue *consistency.UnavailableError
		if !errors.As(aerr, &ue) || *ue != *wantErr {
			t.Fatalf("AssureSufficientLive(%v, %v, %q, %v) = %v, want %+v", l, r, localDC, liveBy, aerr, wantErr)
		}
		if ue.Datacenter != "" && !strings.Contains(ue.Error(), ue.Datacenter) {
			t.Fatalf("%q does not name %q", ue.Error(), ue.Datacenter)
		}
	})
}
