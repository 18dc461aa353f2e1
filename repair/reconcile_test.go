package repair_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

func TestReconcile(t *testing.T) {
	live := replica.Live
	expiring := replica.Expiring
	tomb := replica.Tombstone
	withTTL := func(c replica.Cell, ttl int32) replica.Cell { c.TTL = ttl; return c }
	withLDT := func(c replica.Cell, ldt int64) replica.Cell { c.LocalDeletionTime = ldt; return c }
	tests := []struct {
		name    string
		a, want replica.Cell // want beats a; the test tries both orders
	}{
		{"higher timestamp wins over a larger value", live("c", "z", 1), live("c", "a", 2)},
		{"higher timestamp wins over a tombstone", tomb("c", 1, 9), live("c", "a", 2)},
		{"a later tombstone wins", live("c", "a", 1), tomb("c", 2, 0)},
		{"a later live cell beats an expiring one", expiring("c", "a", 1, 5, 9), live("c", "a", 2)},
		{"negative timestamps order too", live("c", "b", -2), live("c", "a", -1)},
		{"tie, two live cells: the larger value", live("c", "a", 1), live("c", "b", 1)},
		{"tie: live vs tombstone: tombstone", live("c", "z", 1), tomb("c", 1, 0)},
		{"tie: live vs expiring: expiring, value ignored", live("c", "z", 1), expiring("c", "a", 1, 5, 0)},
		{"tie: expiring vs tombstone: tombstone, deletion time ignored", expiring("c", "a", 1, 5, 9), tomb("c", 1, 1)},
		{"tie: two expiring: later expiry, value ignored", expiring("c", "z", 1, 5, 10), expiring("c", "a", 1, 5, 11)},
		{"tie: two tombstones: later deletion time", tomb("c", 1, 10), tomb("c", 1, 11)},
		{"tie: two expiring, same expiry: the larger value", expiring("c", "a", 1, 5, 10), expiring("c", "b", 1, 5, 10)},
		{"values compare as unsigned bytes", live("c", "\x7f", 1), live("c", "\x80", 1)},
		{"a prefix is the smaller value", live("c", "ab", 1), live("c", "abc", 1)},
		{"an empty value is the smallest", live("c", "", 1), live("c", "\x00", 1)},
		{"live cells: the value before a stray deletion time", withLDT(live("c", "a", 1), 3), live("c", "b", 1)},
		{"then the longer TTL", withTTL(live("c", "a", 1), 1), withTTL(live("c", "a", 1), 2)},
		{"then a stray deletion time on a live cell", live("c", "a", 1), withLDT(live("c", "a", 1), 3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, repair.Reconcile(tt.a, tt.want), "Reconcile(a, want)")
			assert.Equal(t, tt.want, repair.Reconcile(tt.want, tt.a), "Reconcile(want, a)")
		})
	}
}

func TestReconcileOfEqualCells(t *testing.T) {
	a := replica.Expiring("c", "v", 3, 7, 100)
	b := replica.Expiring("c", "v", 3, 7, 100)
	assert.True(t, repair.Reconcile(a, b).Equal(a))
}

func TestReconcileLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b, c := genCell(t, "x"), genCell(t, "x"), genCell(t, "x")
		ab := repair.Reconcile(a, b)
		if !ab.Equal(a) && !ab.Equal(b) {
			t.Fatalf("Reconcile(%+v, %+v) = %+v, neither", a, b, ab)
		}
		if ba := repair.Reconcile(b, a); !ab.Equal(ba) {
			t.Fatalf("not commutative: %+v then %+v", ab, ba)
		}
		left := repair.Reconcile(ab, c)
		if right := repair.Reconcile(a, repair.Reconcile(b, c)); !left.Equal(right) {
			t.Fatalf("not associative: %+v vs %+v", left, right)
		}
	})
}
