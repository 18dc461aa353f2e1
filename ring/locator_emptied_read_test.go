package ring_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/ring"
)

// Once RemoveNode took a datacenter's last node, a read of a table
// replicated only there has no replica to ask: the coordinator refuses the
// Locator's empty answer with ErrBadPlacement, naming the table and key
// and the likely cause, before anything is sent.
func TestAReadOfATableInAnEmptiedDatacenterIsABadPlacement(t *testing.T) {
	nodes := randomNodes(1, 4, 4, 1, 1)
	nodes[3].Datacenter = "dc2"
	l, err := ring.NewLocator(ring.LocatorConfig{
		Nodes: nodes, Tables: map[string]consistency.Replication{"only2": nts(map[string]int{"dc2": 1})},
		Connect: new(connector).connect,
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := coordinator.New(coordinator.Config{Locator: l, LocalDatacenter: "dc1"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := coordinator.Request{Table: "only2", Key: "user:7", Level: consistency.One}
	if _, err := c.Read(context.Background(), req); err != nil {
		t.Fatalf("read before dc2 emptied: %v", err)
	}
	if err := l.RemoveNode(nodes[3].ID); err != nil {
		t.Fatal(err)
	}
	_, err = c.Read(context.Background(), req)
	if !errors.Is(err, coordinator.ErrBadPlacement) {
		t.Fatalf("read after dc2 emptied: %v, want ErrBadPlacement", err)
	}
	for _, want := range []string{"only2", "user:7", "datacenter without nodes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
