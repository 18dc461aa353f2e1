package replicatest

import (
	"slices"
	"sync"
	"testing"

	"github.com/readpath/readpath/replica"
)

// sentLog holds the Columns and Slices of every Read command a run of
// TestReplica sent, with copies of what they held, up to their capacity,
// when sent: a Read must leave them as given, while it runs and after it
// returns. After each read the run checks every command it sent so far,
// and at its end all of them once more, so that a replica that keeps a
// command's arrays and changes them later (sorting them at its next call,
// or from a goroutine of its own) fails with a message that says so,
// where it used to fail other checks with an invalid command of the
// kit's, or nothing at all without -race.
type sentLog struct {
	mu   sync.Mutex
	sent []sentCommand
}

type sentCommand struct {
	what            string // describe(cmd)
	columns, given  []string
	slices, ofGiven []replica.Slice
	reported        bool
}

// sentLogs maps the *testing.T of each check running to its run's log.
var sentLogs sync.Map

// watch makes the reads of check t log into l, until t ends.
func watch(t *testing.T, l *sentLog) {
	sentLogs.Store(t, l)
	t.Cleanup(func() { sentLogs.Delete(t) })
}

// sending logs cmd as a check of t is about to send it, and returns the
// log, or nil for a check outside a run of TestReplica.
func sending(t *testing.T, cmd replica.Command) *sentLog {
	v, ok := sentLogs.Load(t)
	if !ok {
		return nil
	}
	l := v.(*sentLog)
	columns, qs := cmd.Columns[:cap(cmd.Columns)], cmd.Query.Slices[:cap(cmd.Query.Slices)]
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sent = append(l.sent, sentCommand{what: describe(cmd),
		columns: columns, given: slices.Clone(columns), slices: qs, ofGiven: slices.Clone(qs)})
	return l
}

// verify fails t for each command logged that no longer holds what it was
// given, once for each; when says when it was seen.
func (l *sentLog) verify(t testing.TB, when string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range l.sent {
		s := &l.sent[i]
		if s.reported {
			continue
		}
		if !slices.Equal(s.columns, s.given) {
			t.Errorf("the command of a %s had its Columns changed from %q to %q, seen %s: Read must leave a command's Columns as given, while it runs and after it returns (a coordinator sends the same ones to every replica of a read and checks the answers against them): do not keep them, sort a copy",
				s.what, s.given, s.columns, when)
			s.reported = true
		}
		if !slices.Equal(s.slices, s.ofGiven) {
			t.Errorf("the command of a %s had its Slices changed from %v to %v, seen %s: Read must leave a command's Slices as given, while it runs and after it returns (a coordinator sends the same ones to every replica of a read and checks the answers against them): do not keep them, reorder a copy",
				s.what, s.ofGiven, s.slices, when)
			s.reported = true
		}
	}
}
