package coordinator

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Round after round, short-read protection asks exactly the replicas that
// the obvious way asks (merge every version whole, count its live rows
// from the first): the running merge, the versions grown in place and the
// count kept from a mark change the cost, not the answers. Replicas take
// writes between rounds, so that a continuation may delete more. Without
// read repair the versions are not grown, only moved to where their
// replicas' answers end.
func TestShortReadsAskAsAWholeMergeDoes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := replica.Query{Limit: rapid.IntRange(1, 4).Draw(t, "limit"), Reversed: rapid.Bool().Draw(t, "reversed")}
		if rapid.Bool().Draw(t, "sliced") {
			q.Slices = []replica.Slice{{Start: replica.StartAt("a"), End: replica.EndAt("c")}}
		}
		stored := make([]replica.Partition, 3)
		vs := make([]version, 3)
		for i := range stored {
			stored[i] = genPartition(t, "stored")
			vs[i].part = respond(t, stored[i], q)
		}
		want := slices.Clone(vs)
		r := &read{readState: readState{q: q, nowInSec: 100}}
		if rapid.Bool().Draw(t, "no read repair") {
			r.opts.ReadRepair = repair.None
		}
		s, err := r.newShortReads(vs)
		if err != nil {
			t.Fatal(err)
		}
		wantMore := slices.Clone(s.more)
		for round := 0; ; round++ {
			if m := s.mark; m.counted && s.countThrough(tally{}, m.key).n != m.n {
				t.Fatalf("round %d: the mark counts %d live rows through %q, the merge holds %d", round, m.n, m.key, s.countThrough(tally{}, m.key).n)
			}
			if !s.merged.Equal(merge(t, want[0].part, merge(t, want[1].part, want[2].part))) {
				t.Fatalf("round %d: the running merge is not the versions' merge", round)
			}
			asks := r.shortReplicas(vs, s)
			if w := wholeShortReplicas(t, r, want, wantMore); !slices.Equal(asks, w) {
				t.Fatalf("round %d: asked %v, a whole merge asks %v", round, asks, w)
			}
			if len(asks) == 0 {
				return
			}
			for _, i := range asks {
				if rapid.IntRange(0, 3).Draw(t, "written since") == 0 {
					stored[i] = merge(t, stored[i], genPartition(t, "write"))
				}
				last := s.ends[i]
				c, prev := respond(t, stored[i], q.After(last)), vs[i].part
				if err := s.add(vs, i, c); err != nil {
					t.Fatal(err)
				}
				s.noteAnswer(i, c, q.After(last))
				want[i].part, wantMore[i] = merge(t, want[i].part, c), s.more[i]
				if r.opts.ReadRepair == repair.None {
					got, ok := vs[i].part.LastClustering(q)
					end, wantOK := want[i].part.LastClustering(q)
					// Where it ends matters only while its replica may be asked again.
					if (s.more[i] && (got != end || ok != wantOK)) || !(vs[i].part.Equal(c) || vs[i].part.Equal(prev)) {
						t.Fatalf("version %d: %v, ending at %q (%v); want its last answer or the one before, ending at %q (%v)",
							i, vs[i].part, got, ok, end, wantOK)
					}
				} else if !vs[i].part.Equal(want[i].part) {
					t.Fatalf("version %d: %v, want %v", i, vs[i].part, want[i].part)
				}
			}
		}
	})
}

// wholeShortReplicas is shortReplicas the obvious way, as it was: the
// whole merge, counted from its first row for each replica.
func wholeShortReplicas(t *rapid.T, r *read, vs []version, more []bool) []int {
	parts := make([]replica.Partition, len(vs))
	for i, v := range vs {
		parts[i] = v.part
	}
	merged, err := repair.Merge(parts...)
	if err != nil {
		t.Fatal(err)
	}
	var asks []int
	for i := range vs {
		last, ok := vs[i].part.LastClustering(r.q)
		if !more[i] || !ok || len(r.q.After(last).Slices) == 0 {
			continue // no answer past the limit, or nothing can follow it
		}
		upTo := through(r.q, last)
		if merged.Restrict(upTo).LiveRows(upTo, r.nowInSec) < r.q.Limit {
			asks = append(asks, i)
		}
	}
	return asks
}

// through returns the rows of q's order from the first up to last,
// included: where an answer that ended at last reached.
func through(q replica.Query, last string) replica.Query {
	s := replica.Slice{Start: replica.Bottom(), End: replica.EndAt(last)}
	if q.Reversed {
		s = replica.Slice{Start: replica.StartAt(last), End: replica.Top()}
	}
	return replica.Query{Slices: []replica.Slice{s}, Reversed: q.Reversed}
}

func respond(t *rapid.T, stored replica.Partition, q replica.Query) replica.Partition {
	resp, err := replica.Command{Table: "t", Key: "k", Query: q, NowInSec: 100}.Respond(stored)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Partition
}

func merge(t *rapid.T, a, b replica.Partition) replica.Partition {
	p, err := repair.Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Without read repair, short-read protection never grows the versions,
// so it makes neither their rooms nor their ownership flags: starting it
// allocates two objects fewer than with read repair.
func TestShortReadsWithoutRepairKeepNoRoomForVersions(t *testing.T) {
	race.SkipPooledAllocs(t)
	p := replica.NewPartition("k", replica.NewRow("a", replica.Live("v", "x", 1)))
	vs := []version{{part: p}, {part: p}, {part: p}}
	allocs := func(mode repair.Mode) float64 {
		r := &read{readState: readState{q: replica.Query{Limit: 1}, nowInSec: 100}}
		r.opts.ReadRepair = mode
		return testing.AllocsPerRun(100, func() {
			if _, err := r.newShortReads(vs); err != nil {
				t.Fatal(err)
			}
		})
	}
	none, blocking := allocs(repair.None), allocs(repair.Blocking)
	if none != blocking-2 {
		t.Fatalf("starting protection allocates %v objects without read repair, %v with; want two fewer without", none, blocking)
	}
}
