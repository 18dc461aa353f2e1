package ring_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/ring"
)

// checkPlacements checks, for many keys of every table, that
// LocatePlacement holds what Locate returns, and returns the placements.
func checkPlacements(t *testing.T, l *ring.Locator) map[string]*coordinator.Placement {
	t.Helper()
	out := map[string]*coordinator.Placement{}
	for i := range 2000 {
		key := fmt.Sprintf("key-%d", i)
		for table := range tables {
			want, wantRepl, err := l.Locate(table, key)
			if err != nil {
				t.Fatal(err)
			}
			p, err := l.LocatePlacement(table, key)
			if err != nil {
				t.Fatalf("LocatePlacement(%s, %s): %v", table, key, err)
			}
			if !slices.Equal(p.Replicas(), want) || p.Replication().String() != wantRepl.String() {
				t.Fatalf("LocatePlacement(%s, %s) = %v, %v; Locate %v, %v", table, key, endpointIDs(p.Replicas()), p.Replication(), endpointIDs(want), wantRepl)
			}
			out[table+"/"+key] = p
		}
	}
	return out
}

// TestLocatePlacementIsLocatesAnswerKept: a range's placement holds
// Locate's answer, is made once and kept, and follows a change of the
// topology.
func TestLocatePlacementIsLocatesAnswerKept(t *testing.T) {
	l, _ := newLocator(t, randomNodes(1, 12, 16, 2, 3))
	first := checkPlacements(t, l)
	again := checkPlacements(t, l)
	for k, p := range first {
		if again[k] != p {
			t.Fatalf("%s: a second LocatePlacement made a new placement", k)
		}
	}
	if err := l.AddNode(randomNodes(2, 13, 16, 2, 3)[12]); err != nil {
		t.Fatal(err)
	}
	after := checkPlacements(t, l)
	moved := 0
	for k, p := range after {
		if !slices.Equal(endpointIDs(p.Replicas()), endpointIDs(first[k].Replicas())) {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no key moved to the new node: the test proves nothing")
	}
	// A replacement that keeps the ID gets a new connection: the
	// placements hold it (checkPlacements compares the replicas).
	n := l.Ring().Nodes()[0]
	before, _ := l.Replica(n.ID)
	if err := l.ReplaceNode(n.ID, n); err != nil {
		t.Fatal(err)
	}
	if now, _ := l.Replica(n.ID); now == before {
		t.Fatal("the replacement kept its connection: the test proves nothing")
	}
	checkPlacements(t, l)
}

func TestLocatePlacementUnknownTable(t *testing.T) {
	l, _ := newLocator(t, randomNodes(1, 3, 4, 2, 1))
	p, err := l.LocatePlacement("nope", "k")
	var te *ring.TableError
	if p != nil || !errors.As(err, &te) || te.Table != "nope" || !errors.Is(err, ring.ErrUnknownTable) {
		t.Errorf("LocatePlacement = %v, %v; want a *TableError for nope", p, err)
	}
}

// TestLocatePlacementRacesKeepOne: reads racing for a range's first
// placement all get the one kept.
func TestLocatePlacementRacesKeepOne(t *testing.T) {
	l, _ := newLocator(t, randomNodes(1, 12, 16, 2, 3))
	got := make([]*coordinator.Placement, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			p, err := l.LocatePlacement("users", "k")
			if err != nil {
				t.Error(err)
			}
			got[i] = p
		})
	}
	wg.Wait()
	for _, p := range got {
		if p == nil || p != got[0] {
			t.Fatalf("placements %v: want one", got)
		}
	}
}
