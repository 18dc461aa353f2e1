package coordinator_test

import (
	"errors"

	"github.com/readpath/readpath/consistency"
)

// The model's side of a failed read: blockFor and availability, worked
// out from DESIGN.md §2.1 over the layout and the liveness view.

func modelQuorum(n int) int { return n/2 + 1 }

func (m *modelRun) total() int {
	n := 0
	for _, rf := range m.lay.rf {
		n += rf
	}
	return n
}

func (m *modelRun) blockFor() int {
	switch m.level {
	case consistency.One, consistency.LocalOne:
		return 1
	case consistency.Two:
		return 2
	case consistency.Three:
		return 3
	case consistency.All:
		return m.total()
	case consistency.LocalQuorum:
		if len(m.lay.rf) > 1 {
			return modelQuorum(m.lay.rf["dc1"])
		}
	case consistency.EachQuorum:
		if len(m.lay.rf) > 1 {
			return modelQuorum(m.lay.rf["dc1"]) + modelQuorum(m.lay.rf["dc2"])
		}
	}
	return modelQuorum(m.total())
}

// alive counts the replicas in the liveness view, in dc if not "".
func (m *modelRun) alive(dc string) int {
	n := 0
	for _, id := range m.ids {
		if !m.fault[id].dead && (dc == "" || m.dc[id] == dc) {
			n++
		}
	}
	return n
}

// unavailable is the UnavailableError the model expects, or nil.
func (m *modelRun) unavailable() *consistency.UnavailableError {
	local := m.level == consistency.LocalOne || m.level == consistency.LocalQuorum
	if m.level == consistency.EachQuorum && len(m.lay.rf) > 1 {
		for _, dc := range []string{"dc1", "dc2"} {
			if need := modelQuorum(m.lay.rf[dc]); m.alive(dc) < need {
				return &consistency.UnavailableError{Level: m.level, Required: need, Alive: m.alive(dc), Datacenter: dc}
			}
		}
		return nil
	}
	alive := m.alive("")
	if local {
		alive = m.alive("dc1")
	}
	if alive < m.blockFor() {
		dc := ""
		if local {
			dc = "dc1"
		}
		return &consistency.UnavailableError{Level: m.level, Required: m.blockFor(), Alive: alive, Datacenter: dc}
	}
	return nil
}

// faulty counts the live replicas whose requests fail.
func (m *modelRun) faulty() int {
	n := 0
	for _, id := range m.ids {
		if f := m.fault[id]; !f.dead && (f.down || f.errs) {
			n++
		}
	}
	return n
}

// checkError holds a failed read to the faults: unavailable exactly when
// the model is, with its figures; otherwise a failure only when a live
// replica fails, counting no more failures than fail; never a timeout,
// as every replica answers well within it.
func (m *modelRun) checkError(err error) {
	var (
		u  *consistency.UnavailableError
		rf *consistency.ReadFailureError
	)
	want := m.unavailable()
	switch {
	case errors.As(err, &u):
		if want == nil || *u != *want {
			m.t.Fatalf("read failed with %#v, the model expects %#v", u, want)
		}
	case want != nil:
		m.t.Fatalf("read failed with %v, the model expects %#v", err, want)
	case errors.As(err, &rf):
		if rf.Failures < 1 || rf.Failures > m.faulty() || rf.BlockFor != m.blockFor() || rf.Received >= rf.BlockFor {
			m.t.Fatalf("read failed with %#v; %d live replicas fail, blockFor %d", rf, m.faulty(), m.blockFor())
		}
	default:
		m.t.Fatalf("read failed with %T %v, with faults %v", err, err, m.fault)
	}
}
