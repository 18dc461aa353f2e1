package coordinator

import "testing"

// Every counter has a field: an array literal with one missing would
// compile and leave a nil.
func TestEveryCounterHasAField(t *testing.T) {
	var tm TableMetrics
	for i, p := range tm.counterFields() {
		if p == nil {
			t.Fatalf("counter %d (%s) has no field", i, counterNames[i])
		}
	}
}
