package ring_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// A Change an OnChange hook writes as JSON names its cause, and reads
// back; the zero or an undefined Cause does not marshal, and an unknown
// name does not read, leaving the Cause as it was.
func TestChangeJSONNamesItsCause(t *testing.T) {
	at := time.Date(2026, 12, 6, 3, 4, 5, 6, time.UTC)
	for _, c := range []ring.Cause{ring.HeartbeatsStopped, ring.ConnectionFailed,
		ring.HeartbeatsResumed, ring.ProbeSucceeded, ring.ReadmitTimeout} {
		ch := ring.Change{Endpoint: replica.Endpoint{ID: "n1", Datacenter: "dc1", Rack: "r1"}, Alive: true, Cause: c, At: at}
		b, err := json.Marshal(ch)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		if !strings.Contains(string(b), `"Cause":"`+c.String()+`"`) {
			t.Errorf("%v: %s does not name the cause", c, b)
		}
		var back ring.Change
		if err := json.Unmarshal(b, &back); err != nil || back != ch {
			t.Errorf("%s read back as %+v, %v; want %+v", b, back, err, ch)
		}
	}
	for _, c := range []ring.Cause{0, 6} {
		if _, err := json.Marshal(ring.Change{Cause: c}); !errors.Is(err, ring.ErrUnknownCause) {
			t.Errorf("Cause(%d) marshalled: %v", c, err)
		}
	}
	back := ring.Change{Cause: ring.ProbeSucceeded}
	if err := json.Unmarshal([]byte(`{"Cause":"probe"}`), &back); !errors.Is(err, ring.ErrUnknownCause) || back.Cause != ring.ProbeSucceeded {
		t.Errorf("an unknown name read as %v, %v", back.Cause, err)
	}
}
