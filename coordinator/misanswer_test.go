package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// misanswer is a replica, or the transport in front of it, that answers
// what its program says: each Read takes the next two bytes of prog, what
// to do and how, and gives what the replica answered, changed, or an error,
// a panic or a hang instead, or the answer to every column, not the columns
// asked for. Apply passes through to the replica, checked.
type misanswer struct {
	replica.Replica
	prog  []byte
	at    *atomic.Int64 // the next step of prog
	check *writeCheck
}

func (m misanswer) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if len(m.prog) < 2 {
		return m.Replica.Read(ctx, cmd)
	}
	i := int(m.at.Add(2)-2) % (len(m.prog) &^ 1)
	return m.step(ctx, cmd, m.prog[i], m.prog[i+1])
}

// nilErr is an error type whose nil pointer a replica returns or panics with.
type nilErr struct{ msg string }

func (e *nilErr) Error() string { return e.msg }

// step answers cmd as the action act with argument arg says.
func (m misanswer) step(ctx context.Context, cmd replica.Command, act, arg byte) (replica.Response, error) {
	if failed, err := misbehave(ctx, cmd.Table, cmd.Key, act, arg); failed {
		return replica.Response{}, err
	}
	if act%12 == 0 && arg%2 == 1 {
		cmd.Columns = nil // a transport that lost the selection: every column, valid
	}
	resp, err := m.Replica.Read(ctx, cmd)
	if err != nil {
		return resp, err
	}
	switch act % 12 {
	case 1, 2:
		resp.Digest[arg%16] ^= 1 | act
		resp.Partition = mangleAnswer(resp.Partition.Clone(), act, arg)
		if act%12 == 2 {
			resp.Partition = mangleAnswer(resp.Partition, arg>>4, act)
		}
	case 3:
		resp.Digest, resp.Partition = digest.Digest{}, replica.Partition{}
	case 4:
		resp.Tombstones = []int{-1, math.MaxInt, math.MinInt, int(arg)}[act>>4%4]
	}
	return resp, nil
}

func (m misanswer) Apply(ctx context.Context, mu replica.Mutation) error {
	m.check.write(m.Endpoint().ID, mu)
	if len(m.prog) >= 2 {
		i := int(m.at.Add(2)-2) % (len(m.prog) &^ 1)
		if failed, err := misbehave(ctx, mu.Table, mu.Partition.Key, m.prog[i], m.prog[i+1]); failed {
			return err
		}
	}
	return m.Replica.Apply(ctx, mu)
}

// misbehave fails a request as act and arg say, and reports whether it
// did; or it delays it, or leaves it be.
func misbehave(ctx context.Context, table, key string, act, arg byte) (failed bool, err error) {
	switch act % 12 {
	case 5:
		return true, errors.New("misanswer: failed")
	case 6:
		var e *nilErr
		return true, e
	case 7:
		return true, fmt.Errorf("misanswer: %w", []error{context.Canceled, context.DeadlineExceeded}[arg%2])
	case 8:
		var e *nilErr
		panic([]any{"misanswer", errors.New("misanswer"), e}[arg%3])
	case 9:
		<-ctx.Done()
		return true, ctx.Err()
	case 10:
		time.Sleep(time.Duration(arg) * time.Millisecond) // ignores its context
	case 11:
		return true, []error{replica.ErrOverloaded, replica.ErrConnectionFailed,
			&replica.TombstoneOverwhelmingError{Table: table, Key: key, Tombstones: 2, Threshold: 1}}[arg%3]
	}
	return false, nil
}

// mangleAnswer changes p as op and arg say: it breaks an invariant of
// Validate, or answers a valid partition the query did not ask for.
func mangleAnswer(p replica.Partition, op, arg byte) replica.Partition {
	if len(p.Rows) == 0 {
		p.Rows = append(p.Rows, replica.NewRow(fuzzKeys[arg%8], replica.Live("a", "new", 90)))
	}
	r := &p.Rows[int(arg)%len(p.Rows)]
	c := &r.Cells
	if len(*c) == 0 {
		*c = append(*c, replica.Live("a", "cell", 90))
	}
	switch op % 16 {
	case 0:
		p.Rows[0], p.Rows[len(p.Rows)-1] = p.Rows[len(p.Rows)-1], p.Rows[0]
	case 1:
		p.Rows = append(p.Rows, p.Rows[len(p.Rows)-1])
	case 2:
		r.Clustering = fuzzKeys[arg%8] + "z"
	case 3:
		*c = append([]replica.Cell{replica.Live("z", "late", 90)}, *c...)
	case 4:
		*c = append(*c, (*c)[len(*c)-1])
	case 5:
		(*c)[0].TTL = -1 - int32(arg)
	case 6:
		(*c)[0] = replica.Expiring((*c)[0].Column, "expired", 95, 1, now-int64(arg&1)) // unpurged, or its expiry now
		if arg&2 != 0 {
			(*c)[0].LocalDeletionTime = 0
		}
	case 7:
		(*c)[0] = replica.Tombstone((*c)[0].Column, 95, now-int64(arg))
		(*c)[0].Value = []byte("ghost")[:arg%2*5]
	case 8:
		p.RangeTombstones = append(p.RangeTombstones, replica.NewRangeTombstone(replica.StartAt(fuzzKeys[arg%8]),
			replica.EndAt(fuzzKeys[arg>>3%8]), replica.DeletedAt(95, now-1)))
	case 9:
		p.RangeTombstones = append([]replica.RangeTombstone{replica.NewRangeTombstone(replica.Bottom(), replica.Top(),
			replica.DeletedAt(int64(arg), now-1))}, p.RangeTombstones...)
	case 10:
		p.Static = replica.NewRow(fuzzKeys[arg%8], replica.Live("s", "static", 90))
	case 11:
		p.Rows = append(p.Rows, replica.NewRow(fuzzKeys[arg%8], replica.Live("a", "added", 90)))
	case 12:
		p.Key += "x"
	case 13:
		(*c)[0].Value = []byte(strings.Repeat("h", 1<<16))
	case 14:
		r.Deletion = replica.DeletedAt(95, -1-int64(arg))
	case 15:
		p = replica.Partition{Key: p.Key}
	}
	return p
}

// writeCheck collects what is wrong with the repair writes of a read of q
// and columns.
type writeCheck struct {
	mu       sync.Mutex
	keys     map[string]bool
	q        replica.Query
	columns  []string
	problems []string
}

func (w *writeCheck) write(to string, mu replica.Mutation) {
	var problem error
	p := mu.Partition
	if err := p.Validate(); err != nil {
		problem = err
	} else if !w.keys[p.Key] {
		problem = fmt.Errorf("key %q, not one the read asked for", p.Key)
	} else if ck, out := w.q.FirstRowOutside(p.Rows); out {
		problem = fmt.Errorf("row %q outside the query", ck)
	} else if rt, out := rangeOutside(w.q, p.RangeTombstones); out {
		problem = fmt.Errorf("range tombstone %v outside the query", rt)
	} else if col, out := columnOutside(w.columns, p); out {
		problem = fmt.Errorf("column %q not selected", col)
	}
	if problem != nil {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.problems = append(w.problems, fmt.Sprintf("repair write to %s: %v: %v", to, problem, p))
	}
}

// rangeOutside returns the first of rts that covers clustering keys q's
// slices do not select.
func rangeOutside(q replica.Query, rts []replica.RangeTombstone) (replica.RangeTombstone, bool) {
	if q.Slices == nil {
		return replica.RangeTombstone{}, false
	}
	for _, rt := range rts {
		if !slicesHold(q.Slices, rt) {
			return rt, true
		}
	}
	return replica.RangeTombstone{}, false
}

func slicesHold(slices []replica.Slice, rt replica.RangeTombstone) bool {
	for _, s := range slices {
		if s.Start.Compare(rt.Start) <= 0 && rt.End.Compare(s.End) <= 0 {
			return true
		}
	}
	return false
}

// columnOutside returns the first column of p's cells and complex deletions
// that columns, if not nil, does not hold.
func columnOutside(columns []string, p replica.Partition) (string, bool) {
	if columns == nil {
		return "", false
	}
	for _, r := range append([]replica.Row{p.Static}, p.Rows...) {
		for _, c := range r.Cells {
			if !slices.Contains(columns, c.Column) {
				return c.Column, true
			}
		}
		for _, cd := range r.ComplexDeletions {
			if !slices.Contains(columns, cd.Column) {
				return cd.Column, true
			}
		}
	}
	return "", false
}
