package ring_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/readpath/readpath/internal/nametest"
	"github.com/readpath/readpath/ring"
)

// Every Cause parses back from the name it prints, in any ASCII letter
// case.
func TestCauseRoundTrips(t *testing.T) {
	for _, c := range []ring.Cause{ring.HeartbeatsStopped, ring.ConnectionFailed,
		ring.HeartbeatsResumed, ring.ProbeSucceeded, ring.ReadmitTimeout} {
		name := c.String()
		for _, s := range []string{name, strings.ToUpper(name), strings.ToUpper(name[:1]) + name[1:]} {
			if got, err := ring.ParseCause(s); err != nil || got != c {
				t.Errorf("ParseCause(%q) = %v, %v; want %v", s, got, err, c)
			}
		}
	}
}

// A name no Cause prints, the zero Cause's and an undefined one's
// included, is an error wrapping ErrUnknownCause that quotes it.
func TestParseCauseRejectsUnknownNames(t *testing.T) {
	for _, s := range []string{"", "Cause(0)", "Cause(6)", "connection_failed", " probe succeeded",
		"probe succeeded ", "readmit timeout\x00", "heartbeatſ stopped", "readmit timeout!"} {
		got, err := ring.ParseCause(s)
		if !errors.Is(err, ring.ErrUnknownCause) || got != 0 {
			t.Errorf("ParseCause(%q) = %v, %v; want an error wrapping ErrUnknownCause", s, got, err)
			continue
		}
		if !strings.Contains(err.Error(), strconv.Quote(s)) {
			t.Errorf("ParseCause(%q)'s error %q does not quote it", s, err)
		}
	}
}

// A Cause without a name, the zero one included, prints its number, as an
// undefined one does: a Change of no cause says so, not ": " and nothing.
func TestANamelessCausePrintsItsNumber(t *testing.T) {
	for _, c := range []ring.Cause{0, 6, 255} {
		if got, want := c.String(), "Cause("+strconv.Itoa(int(c))+")"; got != want {
			t.Errorf("Cause %d prints %q, want %q", c, got, want)
		}
	}
}

// ParseCause accepts exactly a cause's name with its ASCII letters in any
// case (no Unicode folding, such as ſ for s or the Kelvin sign for k, and no
// trimming), and refuses anything else with an error wrapping
// ErrUnknownCause.
func FuzzParseCause(f *testing.F) {
	for _, s := range []string{"probe succeeded", "READMIT TIMEOUT", "heartbeatſ stopped", "", "Cause(1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		nametest.Check(t, s, ring.ParseCause, ring.ErrUnknownCause, ring.HeartbeatsStopped,
			ring.ConnectionFailed, ring.HeartbeatsResumed, ring.ProbeSucceeded, ring.ReadmitTimeout)
	})
}
