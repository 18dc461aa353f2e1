package retry_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

func TestLadderPolicy(t *testing.T) {
	p, err := retry.NewLadderPolicy(c.Two, c.One)
	require.NoError(t, err)
	two := stmt(c.Two, retry.Idempotent)
	cases := []decisionCase{
		{"read: rung 0", q, readTimeout(c.Quorum, 2, 1, false), 0, same(c.Two)},
		{"read: rung 1", two, readTimeout(c.Two, 2, 1, false), 1, same(c.One)},
		{"read: past the end", q, readTimeout(c.One, 1, 0, false), 2, rethrown},
		{"read: enough, no data", q, readTimeout(c.Quorum, 2, 2, false), 0, same(c.Two)},
		{"read: digest mismatch", q, readTimeout(c.Quorum, 2, 2, true), 0, rethrown},
		{"read: serial", serial, readTimeout(c.Serial, 2, 1, false), 0, rethrown},
		// The error's level decides, as in DowngradingPolicy: a read
		// timeout at a serial level rethrows whatever the statement's.
		{"read: serial error of a quorum statement", q, readTimeout(c.Serial, 2, 1, false), 0, rethrown},
		{"read: each quorum", each, readTimeout(c.EachQuorum, 4, 1, false), 0, same(c.Two)},
		{"unavailable: rung 0", q, unavailable(c.Quorum, 2, 1), 0, same(c.Two)},
		{"unavailable: rung 1", two, unavailable(c.Two, 2, 1), 1, same(c.One)},
		{"unavailable: past the end", q, unavailable(c.One, 1, 1), 2, rethrown},
		{"unavailable: none alive", q, unavailable(c.Quorum, 2, 0), 0, rethrown},
		{"unavailable: serial", serial, unavailable(c.Serial, 2, 1), 0, next(c.Serial)},
		{"unavailable: serial past the end", serial, unavailable(c.Serial, 2, 1), 2, rethrown},
		{"closed connection, past the end", q, retry.ErrConnectionClosed, 2, rethrown},
		{"overloaded, past the end", q, retry.ErrOverloaded, 2, rethrown},
		// A rung above the failed level would raise it: the ladder stops.
		{"rung would raise", stmt(c.One, retry.Idempotent), readTimeout(c.One, 1, 0, false), 0, rethrown},
	}
	runDecisions(t, p, append(cases, driverErrorCases(0)...))
}

func TestLadderPolicyWriteTypes(t *testing.T) {
	p, err := retry.NewLadderPolicy(c.Two, c.One)
	require.NoError(t, err)
	tests := []struct {
		wt             c.WriteType
		acked, unacked retry.Verdict
	}{
		{c.WriteSimple, ignored(c.Quorum), rethrown},
		{c.WriteBatch, ignored(c.Quorum), rethrown},
		{c.WriteUnloggedBatch, same(c.Two), same(c.Two)},
		{c.WriteCounter, rethrown, rethrown}, // gocql would IGNORE an acked counter write
		{c.WriteBatchLog, same(c.Quorum), same(c.Quorum)},
		{c.WriteCAS, rethrown, rethrown},
		{c.WriteView, rethrown, rethrown},
		{c.WriteCDC, rethrown, rethrown},
	}
	require.Len(t, tests, len(writeTypes))
	for _, tt := range tests {
		assert.Equal(t, tt.acked, ask(p, q, writeTimeout(c.Quorum, tt.wt, 3, 2), 0), "%s acked", tt.wt)
		assert.Equal(t, tt.unacked, ask(p, q, writeTimeout(c.Quorum, tt.wt, 3, 0), 0), "%s unacked", tt.wt)
		assert.Equal(t, rethrown, ask(p, q, writeTimeout(c.Quorum, tt.wt, 3, 2), 2), "%s past the end", tt.wt)
	}
	assert.Equal(t, same(c.One), ask(p, stmt(c.Two, retry.Idempotent),
		writeTimeout(c.Two, c.WriteUnloggedBatch, 2, 1), 1))
}

func TestNewLadderPolicyRejects(t *testing.T) {
	tests := []struct {
		name   string
		levels []c.Level
		index  int // of the bad rung; -1 for no rung at all
	}{
		{"empty", nil, -1},
		{"raises", []c.Level{c.One, c.Quorum}, 1},
		{"repeats", []c.Level{c.Quorum, c.Quorum}, 1},
		{"equivalent", []c.Level{c.LocalOne, c.One}, 1},
		{"may raise under RF 3", []c.Level{c.Quorum, c.Three}, 1},
		{"may raise with a small local DC", []c.Level{c.LocalQuorum, c.Two}, 1},
		{"any", []c.Level{c.Quorum, c.Any}, 1},
		{"any alone", []c.Level{c.Any}, 0}, // no rung before it to be weaker than
		{"serial", []c.Level{c.Serial, c.One}, 0},
		{"local serial", []c.Level{c.Quorum, c.LocalSerial}, 1},
		{"undefined", []c.Level{c.Level(42)}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := retry.NewLadderPolicy(tt.levels...)
			require.ErrorIs(t, err, retry.ErrInvalidLadder)
			assert.Nil(t, p.Levels)
			var le *retry.LadderError
			if tt.index < 0 {
				assert.False(t, errors.As(err, &le))
				return
			}
			require.ErrorAs(t, err, &le)
			assert.Equal(t, tt.index, le.Index)
			assert.Equal(t, tt.levels[tt.index], le.Level)
			assert.Contains(t, err.Error(), le.Level.String())
		})
	}
}

func TestNewLadderPolicyAcceptsAndCopies(t *testing.T) {
	levels := []c.Level{c.All, c.EachQuorum, c.Quorum, c.LocalQuorum, c.LocalOne}
	p, err := retry.NewLadderPolicy(levels...)
	require.NoError(t, err)
	levels[1] = c.Any
	assert.Equal(t, c.EachQuorum, p.Levels[1])
	assert.NoError(t, p.Validate())
	for _, ok := range [][]c.Level{{c.All, c.Three, c.Two, c.One}, {c.Quorum, c.Two, c.LocalOne}, {c.One}} {
		_, err := retry.NewLadderPolicy(ok...)
		assert.NoError(t, err, "%v", ok)
	}
}

// A ladder that does not validate never panics: it rethrows everything.
func TestInvalidLadderRethrows(t *testing.T) {
	ladders := []retry.LadderPolicy{{}, {Levels: []c.Level{c.One, c.Quorum}}, {Levels: []c.Level{c.Level(200)}}}
	errs := []error{readTimeout(c.Quorum, 2, 1, false), unavailable(c.Quorum, 2, 1),
		writeTimeout(c.Quorum, c.WriteUnloggedBatch, 2, 1), writeTimeout(c.Quorum, c.WriteSimple, 2, 1),
		retry.ErrConnectionClosed, retry.ErrOverloaded}
	for _, p := range ladders {
		require.Error(t, p.Validate())
		for _, err := range errs {
			for _, n := range []int{-1, 0, 1, 5} {
				assert.Equal(t, rethrown, ask(p, q, err, n), "%v %v %d", p.Levels, err, n)
			}
		}
	}
}

// Every ladder NewLadderPolicy accepts only goes down: wherever two
// consecutive rungs can both be met, the lower needs no more replicas than
// the upper. Checked against the consistency package's own arithmetic, for
// every pair of levels, over every small replication.
func TestLadderRungsNeverRaise(t *testing.T) {
	for _, upper := range c.Levels() {
		for _, lower := range c.Levels() {
			if _, err := retry.NewLadderPolicy(upper, lower); err != nil {
				continue
			}
			for _, r := range smallReplications() {
				for _, dc := range []string{"", "dc1", "dc2", "dc3"} {
					if !meetable(upper, r, dc) || !meetable(lower, r, dc) {
						continue
					}
					assert.LessOrEqual(t, lower.BlockFor(r, dc), upper.BlockFor(r, dc),
						"%s after %s under %v in %q", lower, upper, r, dc)
				}
			}
		}
	}
}

// smallReplications returns SimpleStrategy with RF 1..9 and every
// NetworkTopology of up to three datacenters with RF 0..5 each.
func smallReplications() []c.Replication {
	var rs []c.Replication
	for rf := 1; rf <= 9; rf++ {
		rs = append(rs, c.Simple(rf))
	}
	for a := 1; a <= 5; a++ {
		for b := -1; b <= 5; b++ {
			for d := -1; d <= 5; d++ {
				rf := map[string]int{"dc1": a}
				if b >= 0 {
					rf["dc2"] = b
				}
				if d >= 0 {
					rf["dc3"] = d
				}
				rs = append(rs, c.NetworkTopology(rf))
			}
		}
	}
	return rs
}

// The order NewLadderPolicy enforces is strict: no level follows itself, no
// two levels may follow each other, and a ladder is valid exactly when each
// rung may follow the one before, which is transitive.
func TestLadderOrderLaws(t *testing.T) {
	levels := c.Levels()
	valid := func(ls ...c.Level) bool { _, err := retry.NewLadderPolicy(ls...); return err == nil }
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.SampledFrom(levels).Draw(t, "a")
		b := rapid.SampledFrom(levels).Draw(t, "b")
		d := rapid.SampledFrom(levels).Draw(t, "d")
		if valid(a, a) {
			t.Fatalf("%s may follow itself", a)
		}
		if valid(a, b) && valid(b, a) {
			t.Fatalf("%s and %s may follow each other", a, b)
		}
		if valid(a, b, d) != (valid(a, b) && valid(b, d)) {
			t.Fatalf("ladder %s %s %s: valid %v, pairs %v %v", a, b, d, valid(a, b, d), valid(a, b), valid(b, d))
		}
		if valid(a, b) && valid(b, d) && !valid(a, d) {
			t.Fatalf("not transitive: %s > %s > %s but not %s > %s", a, b, d, a, d)
		}
	})
}

// meetable reports whether l can succeed with every replica alive.
func meetable(l c.Level, r c.Replication, localDC string) bool {
	live := map[string]int{}
	if r.IsSimple() {
		live[""] = r.Total()
	}
	for _, d := range r.Datacenters() {
		live[d.Datacenter] = d.Factor
	}
	return c.AssureSufficientLive(l, r, localDC, live) == nil
}

// A rung equal to the level that failed does not raise it: a ladder that
// starts at the statement's own level retries there first (gocql's
// DowngradingConsistencyRetryPolicy, whose list may begin with the query's
// level). THREE, which QUORUM is not comparable with, is at most itself.
func TestALadderRungAtTheFailedLevelRetriesThere(t *testing.T) {
	for _, l := range []c.Level{c.One, c.Two, c.Three, c.Quorum, c.LocalQuorum, c.EachQuorum, c.All, c.LocalOne} {
		p, err := retry.NewLadderPolicy(l)
		require.NoError(t, err)
		assert.Equal(t, same(l), p.OnUnavailable(stmt(l, retry.Idempotent), unavailable(l, 3, 1), 0), "%s", l)
		assert.Equal(t, same(l), p.OnReadTimeout(stmt(l, retry.Idempotent), readTimeout(l, 3, 1, false), 0), "%s", l)
	}
}
