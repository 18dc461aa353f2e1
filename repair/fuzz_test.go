package repair_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// fuzzReader decodes fuzz bytes into partitions of small alphabets, so that
// versions collide often. Most decode valid; a byte of 15 (mod 16) at a
// corruption point breaks one invariant (a repeated key, a negative TTL, a
// tombstone with a value, a static row with a clustering key, an inverted
// range), so the fuzzer explores Merge's refusals too. Past the end it reads
// zeros.
type fuzzReader struct{ data []byte }

func (r *fuzzReader) next(n int) int {
	if len(r.data) == 0 {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return int(b) % n
}

func (r *fuzzReader) corrupt() bool { return r.next(16) == 15 }

// deletion returns no deletion for a zero byte, else one of small values.
func (r *fuzzReader) deletion() replica.Deletion {
	if r.next(3) == 0 {
		return replica.Deletion{}
	}
	return replica.DeletedAt(int64(r.next(5)-1), int64(1+r.next(3)))
}

func (r *fuzzReader) cell(column, path string) replica.Cell {
	value := []string{"", "a", "b", "\x7f", "\x80"}[r.next(5)]
	ts, ldt := int64(r.next(4)-1), int64(1+r.next(3))
	c := replica.Live(column, value, ts).WithPath(path)
	switch r.next(3) {
	case 1:
		ttl := int32(1 + r.next(2))
		c = replica.Expiring(column, value, ts, ttl, ldt+int64(ttl)).WithPath(path)
	case 2:
		c = replica.Tombstone(column, ts, ldt).WithPath(path)
	}
	if r.corrupt() {
		c.TTL, c.Value = -1, []byte("v")
	}
	return c
}

// keys returns up to three strictly increasing one-letter keys from first,
// and now and then the empty key before them.
func (r *fuzzReader) keys(first byte) []string {
	var keys []string
	if r.next(4) == 0 {
		keys = append(keys, "")
	}
	k := first - 1
	for range r.next(4) {
		if !r.corrupt() {
			k += byte(1 + r.next(2))
		}
		keys = append(keys, string(k))
	}
	return keys
}

// row fills row with liveness, complex deletions and cells.
func (r *fuzzReader) row(row *replica.Row) {
	if r.next(2) == 1 {
		row.Liveness = replica.Inserted(int64(1 + r.next(3)))
	}
	for _, column := range r.keys('x') {
		if d := r.deletion(); !d.IsLive() {
			row.ComplexDeletions = append(row.ComplexDeletions, replica.ComplexDeletion{Column: column, Deletion: d})
		}
	}
	for _, column := range r.keys('x') {
		for _, path := range r.keys('p') {
			row.Cells = append(row.Cells, r.cell(column, path))
		}
	}
}

// ranges returns up to three ordered range tombstones over keys a to e.
func (r *fuzzReader) ranges() []replica.RangeTombstone {
	var rts []replica.RangeTombstone
	at := 0
	for range r.next(4) {
		start := at + r.next(3)
		end := start + 1 + r.next(3)
		if r.corrupt() {
			start, end = end, start
		}
		rt := replica.NewRangeTombstone(replica.StartAt(string(rune('a'+start/2))), replica.EndBefore(string(rune('a'+end/2))), replica.DeletedAt(int64(r.next(4)), 1))
		if start%2 == 1 {
			rt.Start = replica.StartAfter(rt.Start.Clustering)
		}
		if end%2 == 1 {
			rt.End = replica.EndAt(rt.End.Clustering)
		}
		rts = append(rts, rt)
		at = end
	}
	return rts
}

func (r *fuzzReader) partition() replica.Partition {
	p := replica.Partition{Key: "k", Deletion: r.deletion(), RangeTombstones: r.ranges()}
	if r.corrupt() {
		p.Key = "j"
	}
	if r.next(2) == 1 {
		r.row(&p.Static)
		if r.corrupt() {
			p.Static.Clustering = "s"
		}
	}
	for _, clustering := range r.keys('a') {
		row := replica.Row{Clustering: clustering, Deletion: r.deletion()}
		r.row(&row)
		p.Rows = append(p.Rows, row)
	}
	return p
}

// FuzzMergeDiff checks Merge against the reference and its laws, Diff's
// convergence, and that a Resolver agrees with both, on versions of which
// some are invalid.
func FuzzMergeDiff(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0, 0, 15})                            // a second version with another key
	f.Add([]byte{0, 0, 0, 2, 0, 0, 15})                         // a repeated clustering key
	f.Add([]byte{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 15}) // a corrupt cell
	rng := rand.New(rand.NewPCG(3, 5))
	for range 16 {
		seed := make([]byte, 128)
		for i := range seed {
			seed[i] = byte(rng.IntN(15)) // no corruption
		}
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &fuzzReader{data: data}
		vs := make([]replica.Partition, 1+r.next(3))
		for i := range vs {
			vs[i] = r.partition()
		}
		before := cloneAll(vs)
		m, err := repair.Merge(vs...)
		for i := range vs {
			repair.Diff(vs[i], vs[(i+1)%len(vs)]) // must not panic, valid or not
			requireSame(t, before[i], vs[i], "version %d", i)
		}
		requireResolvedAlike(t, vs, m, err)
		if err != nil {
			return
		}
		requireSame(t, referenceMerge(vs), m, "merge against the reference")
		reversed := slices.Clone(vs)
		slices.Reverse(reversed)
		requireSame(t, m, mustMerge(t, reversed...), "merge of the versions reversed")
		for _, v := range vs {
			d, _ := repair.Diff(m, v)
			repaired := mustMerge(t, v, d)
			requireSame(t, m, repaired, "version %s repaired by %s", v, d)
			if repaired.Digest() != m.Digest() {
				t.Fatalf("digests differ after repair")
			}
		}
		now := int64(r.next(8))
		requirePurgeLaws(t, m, now, now-int64(r.next(5)))
	})
}

// requireResolvedAlike checks that Merge's error err is the first fault in
// version order, and that a Resolver returns for vs what Merge did, m or
// err, and Diff's diff of each version.
func requireResolvedAlike(t *testing.T, vs []replica.Partition, m replica.Partition, err error) {
	t.Helper()
	if want := checkedVersions(vs); !reflect.DeepEqual(want, err) {
		t.Fatalf("Merge's error %v, want %v", err, want)
	}
	var r repair.Resolver
	requireResolveValidSafe(t, &r, vs, err)
	rm, diffs, rerr := r.Resolve(vs...)
	if !reflect.DeepEqual(err, rerr) {
		t.Fatalf("Resolve's error %v, Merge's %v", rerr, err)
	}
	if err != nil {
		return
	}
	requireSame(t, m, rm, "Resolve's merge")
	for i, v := range vs {
		d, _ := repair.Diff(m, v)
		requireSame(t, d, diffs[i], "Resolve's diff of version %d", i)
	}
}

// requireResolveValidSafe checks ResolveValid on versions that may be
// invalid, whose Merge returned err: it does not panic, it refuses what
// it must check (no versions, keys, everything but rows), and on valid
// versions it is Resolve.
func requireResolveValidSafe(t *testing.T, r *repair.Resolver, vs []replica.Partition, err error) {
	t.Helper()
	m, diffs, verr := r.ResolveValid(vs...)
	switch {
	case headsInvalid(vs):
		if !errors.Is(verr, repair.ErrInvalidVersions) {
			t.Fatalf("ResolveValid of versions with invalid heads: %v", verr)
		}
	case err == nil:
		requireSame(t, mustMerge(t, vs...), m, "ResolveValid's merge")
		for i, v := range vs {
			d, _ := repair.Diff(m, v)
			requireSame(t, d, diffs[i], "ResolveValid's diff of version %d", i)
		}
	}
}

// requirePurgeLaws checks that purging merged at a read time leaves it
// canonical, purges all there is at once, and changes nothing a client
// sees then.
func requirePurgeLaws(t *testing.T, merged replica.Partition, now, gcBefore int64) {
	t.Helper()
	p := merged.Purge(now, gcBefore)
	requireSame(t, p, mustMerge(t, p), "merge of the purged merge at %d, %d", now, gcBefore)
	requireSame(t, p, p.Purge(now, gcBefore), "purge of the purged merge")
	if got, want := p.Visible(now), merged.Visible(now); !got.Equal(want) {
		t.Fatalf("purge at %d, %d changed the view:\n got  %v\n want %v", now, gcBefore, got, want)
	}
}
