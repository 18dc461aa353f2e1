package consistency

import "math"

// AssureSufficientLive checks, before any request is sent, that enough
// replicas are alive for an operation at level l. liveByDC counts the live
// replicas of the data per datacenter (use the key "" when replicas have no
// datacenter). DC-local levels count only localDC, and name it when it falls
// short; EACH_QUORUM checks every datacenter in turn, by name, and names the
// first that falls short; the other levels count every datacenter. ANY needs
// no live replica (a hint will do). A negative count counts as none, and
// counts that add up past math.MaxInt as math.MaxInt. Counts are taken as
// given: count only the replicas of the data (a datacenter the replication
// does not name, or more live replicas than a datacenter's factor, would
// count towards the levels that count every datacenter).
//
// It returns a *UnavailableError, or an error wrapping ErrInvalidReplication
// or ErrUnknownLevel when r or l is invalid.
func AssureSufficientLive(l Level, r Replication, localDC string, liveByDC map[string]int) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if !l.Valid() {
		return l.ValidateForRead()
	}
	switch {
	case l == Any:
		return nil
	case l.IsDatacenterLocal():
		return need(l, l.BlockFor(r, localDC), max(liveByDC[localDC], 0), localDC)
	case l == EachQuorum && !r.IsSimple():
		for _, d := range r.dcs {
			if d.Factor == 0 {
				continue
			}
			if err := need(l, quorum(d.Factor), max(liveByDC[d.Datacenter], 0), d.Datacenter); err != nil {
				return err
			}
		}
		return nil
	}
	total := 0
	for _, n := range liveByDC {
		switch {
		case n <= 0: // a negative count is none; added, it hid live replicas
		case total > math.MaxInt-n:
			total = math.MaxInt // a sum past MaxInt wrapped to a negative Alive
		default:
			total += n
		}
	}
	return need(l, l.BlockFor(r, localDC), total, "")
}

func need(l Level, required, alive int, dc string) error {
	if alive >= required {
		return nil
	}
	return &UnavailableError{Level: l, Required: required, Alive: alive, Datacenter: dc}
}
