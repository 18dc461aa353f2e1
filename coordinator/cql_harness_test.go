package coordinator_test

import (
	"fmt"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
)

// cqlVector is one SELECT of a Cassandra test and the rows it expects.
type cqlVector struct {
	src  string // Cassandra test class and method
	sel  cqlSelect
	want [][]any
	// before, if set, runs first: the statements before this SELECT, with
	// the same replicas missing writes as setup's.
	before func(db *cqlDB)
}

func r(vals ...any) []any { return vals }

// runCQL builds the table with setup, then runs every vector: with every
// write on every replica, at ONE, QUORUM and ALL; and with each write
// missing one replica in turn, at QUORUM and ALL, so that reconciliation
// and short-read protection must recover what a replica missed.
func runCQL(t *testing.T, tab func() *cqlTable, o coordinator.TableOptions, setup func(db *cqlDB), vs []cqlVector) {
	t.Helper()
	for _, skew := range []bool{false, true} {
		levels := []consistency.Level{consistency.One, consistency.Quorum, consistency.All}
		if skew {
			levels = levels[1:]
		}
		for _, level := range levels {
			t.Run(fmt.Sprintf("skew=%v/%v", skew, level), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					o := o
					if skew && level == consistency.All {
						o.ReadRepair = repair.None // keep the replicas apart for every vector
					}
					db := newCQL(t, tab(), o)
					db.skew = skew
					setup(db)
					for _, v := range vs {
						if v.before != nil {
							v.before(db)
						}
						for _, d := range derived(v) {
							s := d.sel
							s.level = level
							got, err := db.run(s)
							if assert.NoError(t, err, d.src) {
								assert.Equal(t, d.want, got, "%s: %+v", d.src, d.sel)
							}
						}
					}
					m := db.e.c.Metrics().Total
					if skew {
						assert.Positive(t, m.DigestMismatches, "the skewed replicas never disagreed")
					}
					t.Logf("mismatches %d, short reads %d", m.DigestMismatches, m.ShortReadRequests)
				})
			})
		}
	}
}

// derived is v and, for a SELECT of several partitions, the same paged; for
// a SELECT of one partition with no limit, the same
// SELECT with LIMIT 1 and 2, reversed, and paged 1 and 2 rows at a time,
// whose rows follow from Cassandra's: a prefix, the reverse, the same.
func derived(v cqlVector) []cqlVector {
	out := []cqlVector{v}
	s := v.sel
	if len(s.pks) != 1 && !s.ordered && s.pageSize == 0 {
		for _, n := range []int{1, 2, 3} { // a partition range or IN, paged
			p := s
			p.pageSize = n
			out = append(out, cqlVector{src: v.src + " (paged)", sel: p, want: v.want})
		}
	}
	if len(s.pks) != 1 || s.limit != 0 || s.ppl != 0 || s.pageSize != 0 || s.distinct {
		return out
	}
	for _, n := range []int{1, 2} {
		l := s
		l.limit = n
		out = append(out, cqlVector{src: v.src + " (LIMIT)", sel: l, want: v.want[:min(n, len(v.want))]})
		l.reversed = !s.reversed
		rev := slices.Clone(v.want)
		slices.Reverse(rev)
		out = append(out, cqlVector{src: v.src + " (reversed, LIMIT)", sel: l, want: rev[:min(n, len(rev))]})
		p := s
		p.pageSize = n
		out = append(out, cqlVector{src: v.src + " (paged)", sel: p, want: v.want})
		p.limit = 3
		out = append(out, cqlVector{src: v.src + " (paged, LIMIT)", sel: p, want: v.want[:min(3, len(v.want))]})
	}
	return out
}
