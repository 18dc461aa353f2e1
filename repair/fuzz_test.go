package repair_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// fuzzReader decodes fuzz bytes into partitions of small alphabets, so that
// versions collide often. Most decode valid; a byte of 15 (mod 16) at a
// corruption point breaks one invariant (a repeated key, a negative TTL, a
// tombstone with a value), so the fuzzer explores Merge's refusals too. Past
// the end it reads zeros.
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
	return replica.DeletedAt(int64(r.next(5)-1), int64(r.next(3)))
}

func (r *fuzzReader) cell(column string) replica.Cell {
	value := []string{"", "a", "b", "\x7f", "\x80"}[r.next(5)]
	ts, ldt := int64(r.next(4)-1), int64(r.next(3))
	c := replica.Live(column, value, ts)
	switch r.next(3) {
	case 1:
		c = replica.Expiring(column, value, ts, int32(1+r.next(2)), ldt)
	case 2:
		c = replica.Tombstone(column, ts, ldt)
	}
	if r.corrupt() {
		c.TTL, c.Value = -1, []byte("v")
	}
	return c
}

// keys returns up to three strictly increasing one-letter keys from first.
func (r *fuzzReader) keys(first byte) []string {
	var keys []string
	k := first - 1
	for range r.next(4) {
		if !r.corrupt() {
			k += byte(1 + r.next(2))
		}
		keys = append(keys, string(k))
	}
	return keys
}

func (r *fuzzReader) partition() replica.Partition {
	p := replica.Partition{Key: "k", Deletion: r.deletion()}
	if r.corrupt() {
		p.Key = "j"
	}
	for _, clustering := range r.keys('a') {
		row := replica.Row{Clustering: clustering, Deletion: r.deletion()}
		for _, column := range r.keys('x') {
			row.Cells = append(row.Cells, r.cell(column))
		}
		p.Rows = append(p.Rows, row)
	}
	return p
}

func FuzzMergeDiff(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0, 0, 15})                            // a second version with another key
	f.Add([]byte{0, 0, 0, 2, 0, 0, 15})                         // a repeated clustering key
	f.Add([]byte{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 15}) // a corrupt cell
	rng := rand.New(rand.NewPCG(3, 5))
	for range 16 {
		seed := make([]byte, 96)
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
		if err != nil {
			return
		}
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
	})
}
