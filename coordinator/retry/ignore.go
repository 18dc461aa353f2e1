package retry

import "github.com/readpath/readpath/consistency"

// ignore ends the statement as a success after a's failure f, at the level
// the failure shows it reached, and reports that level to OnDowngrade when
// it is not the statement's: an ignored write timeout is a write fewer
// replicas hold than the application asked for, and must not pass
// unnoticed.
func (x *execution) ignore(a attemptSpec, f failure, err error) step {
	x.e.m.ignores.Add(1)
	l := reached(f, a.level)
	if obs := x.e.cfg.OnDowngrade; obs != nil && l != x.stmt.Level {
		obs(Downgrade{Requested: x.stmt.Level, From: a.level, To: l, Cause: f.cause,
			Target: a.target, Retry: x.retries, Ignored: true})
	}
	return step{kind: stepIgnore, err: err, level: l}
}

// reached returns the level a statement whose failure f at level from was
// ignored is left at: for a write timeout, THREE, TWO or ONE by the
// replicas that acknowledged the write, as DowngradingPolicy counts them,
// or from if as many as it needed did; otherwise ANY, since nothing says a
// replica holds the write or that a read was served. For an error that
// joins requests (errors.Join), it is the weakest any of them reached: ANY
// if one holds no write timeout.
func reached(f failure, from consistency.Level) consistency.Level {
	if f.wt == nil || f.bare {
		return consistency.Any
	}
	if f.short == nil {
		return from
	}
	l, _ := countLevel(f.short.Received) // ANY for none
	return l
}
