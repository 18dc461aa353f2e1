package coordinator_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// FuzzArbitraryPartitionAnswers is FuzzMisansweringReplicas with bad
// replicas that answer partitions decoded whole from the fuzz bytes, not
// edits of a true answer: any shape, valid or not, of the key or another,
// inside the query or not, with extreme timestamps and TTLs, any digest
// (that of the decoded partition, garbage or the true one) and any
// tombstone count. A bad answer must never crash or wedge the coordinator:
// every read ends, with nothing left running, in a typed error that names
// only bad replicas or in a valid page of the query, and no repair write
// is malformed or outside the query. With an empty prog, at ALL, the pages
// of a Read show the replicas' merged rows exactly.
func FuzzArbitraryPartitionAnswers(f *testing.F) {
	f.Add(uint32(0), []byte{})
	for _, shape := range honestShapes {
		f.Add(2|shape<<10, []byte{})
	}
	for m := range byte(16) {
		f.Add(uint32(m)|uint32(m)<<7, []byte{m*4 + 1, m, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
		f.Add(uint32(1|1<<7|uint32(m)<<10), []byte{1, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, m})
	}
	f.Fuzz(func(t *testing.T, setup uint32, prog []byte) {
		synctest.Test(t, func(t *testing.T) {
			readThrough(t, setup, false, len(prog) == 0, func(r replica.Replica, bad bool, at *atomic.Int64, check *writeCheck) replica.Replica {
				a := arbitraryAnswers{Replica: r, reads: at, check: check}
				if bad {
					a.prog = prog
				}
				return a
			})
		})
	})
}

// arbitraryAnswers is a replica, or the transport in front of it, that
// answers each read, unless prog is empty, with a partition decoded from
// prog at a point that moves on with every read (or, for a digest read,
// its digest, garbage or the true one), claiming any tombstone count.
// Apply passes through to the replica, checked.
type arbitraryAnswers struct {
	replica.Replica
	prog  []byte
	reads *atomic.Int64
	check *writeCheck
}

func (a arbitraryAnswers) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := a.Replica.Read(ctx, cmd)
	if err != nil || len(a.prog) == 0 {
		return resp, err
	}
	in := &answerInput{data: a.prog, at: int(a.reads.Add(7)) - 7}
	mode := in.next()
	if mode%4 == 0 {
		return resp, nil // this one answers well
	}
	p := in.partition(cmd.Key)
	if cmd.DigestOnly {
		switch mode / 4 % 3 {
		case 0:
			resp.Digest, _ = p.DigestAt(cmd.DigestVersion)
		case 1:
			resp.Digest = digest.Digest{mode}
		}
	} else {
		resp.Partition = p
	}
	if mode&0x40 != 0 {
		resp.Tombstones = int(in.number())
	}
	return resp, nil
}

func (a arbitraryAnswers) Apply(ctx context.Context, mu replica.Mutation) error {
	a.check.write(a.Endpoint().ID, mu)
	return a.Replica.Apply(ctx, mu)
}

// answerInput decodes partitions from fuzz bytes, read cyclically from at.
type answerInput struct {
	data []byte
	at   int
}

func (in *answerInput) next() byte {
	if len(in.data) == 0 {
		return 0
	}
	c := in.data[in.at%len(in.data)]
	in.at++
	return c
}

// number draws a timestamp, deletion time, TTL or count: zero, near now,
// negative, small, huge or an extreme of int64.
func (in *answerInput) number() int64 {
	switch c := in.next(); c % 8 {
	case 0:
		return 0
	case 1:
		return now - int64(c>>3)
	case 2:
		return now + int64(c>>3)
	case 3:
		return -1 - int64(c>>3)
	case 4:
		return int64(c>>3) * 10
	case 5:
		return 1<<62 + int64(c)
	case 6:
		return -1 << 63
	}
	return 1<<63 - 1
}

// answerClustering is a key of fuzzKeys, or one just past it, as c says.
func answerClustering(c byte) string {
	return fuzzKeys[int(c>>3)%len(fuzzKeys)] + []string{"", "z"}[c>>6&1]
}

func (in *answerInput) bound() replica.Bound {
	c := in.next()
	return replica.Bound{Kind: replica.BoundKind(c % 8), Clustering: answerClustering(c)}
}

func (in *answerInput) deletion() replica.Deletion {
	if in.next()%2 == 0 {
		return replica.Deletion{}
	}
	return replica.Deletion{MarkedForDeleteAt: in.number(), LocalDeletionTime: in.number()}
}

func (in *answerInput) cell() replica.Cell {
	c := in.next()
	cell := replica.Cell{Column: []string{"a", "b", "s", "z"}[c%4], Timestamp: in.number()}
	if c&4 != 0 {
		cell.Path = string(rune('p' + c>>3%3))
	}
	switch k := in.next(); k % 4 {
	case 0:
		cell.Value = []byte{k}
	case 1:
		cell.Tombstone, cell.LocalDeletionTime = true, in.number()
		if k&4 != 0 {
			cell.Value = []byte("ghost")
		}
	case 2:
		cell.Value, cell.TTL, cell.LocalDeletionTime = []byte("x"), int32(int8(in.next())), in.number()
	case 3:
		cell.Value, cell.TTL = []byte("y"), int32(in.number())
	}
	return cell
}

func (in *answerInput) row(static bool) replica.Row {
	var r replica.Row
	if c := in.next(); !static || c%8 == 0 {
		r.Clustering = answerClustering(c)
	}
	switch c := in.next(); c % 4 {
	case 1:
		r.Liveness = replica.Liveness{Timestamp: in.number()}
	case 2:
		r.Liveness = replica.Liveness{Timestamp: in.number(), TTL: int32(int8(in.next())), ExpiresAt: in.number()}
	}
	if !static || in.next()%8 == 0 {
		r.Deletion = in.deletion()
	}
	for range in.next() % 3 {
		r.ComplexDeletions = append(r.ComplexDeletions, replica.ComplexDeletion{
			Column: []string{"a", "b", "s", "z"}[in.next()%4], Deletion: in.deletion()})
	}
	for range in.next() % 4 {
		r.Cells = append(r.Cells, in.cell())
	}
	return r
}

// partition decodes any partition, valid or not, of key or of another.
func (in *answerInput) partition(key string) replica.Partition {
	p := replica.Partition{Key: key}
	if in.next()%8 == 0 {
		p.Key += "x"
	}
	p.Deletion = in.deletion()
	if in.next()%2 == 0 {
		p.Static = in.row(true)
	}
	for range in.next() % 3 {
		p.RangeTombstones = append(p.RangeTombstones, replica.RangeTombstone{Start: in.bound(), End: in.bound(), Deletion: in.deletion()})
	}
	for range in.next() % 5 {
		p.Rows = append(p.Rows, in.row(false))
	}
	return p
}
