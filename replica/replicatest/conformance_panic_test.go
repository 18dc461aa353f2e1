package replicatest_test

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// misbehaving is mapReplica with one method that panics, exits its
// goroutine or hangs: in is that method, and a Read misbehaves only for
// the key "missing", so that the checks that read no such key pass.
type misbehaving struct {
	*mapReplica
	in      string
	release chan struct{} // closed at the end of the test: a hung call ends
}

func (m *misbehaving) misbehave(method string) {
	if m.in != method {
		return
	}
	switch {
	case strings.HasPrefix(method, "hangs in"):
		<-m.release
	case strings.HasPrefix(method, "exits in"):
		runtime.Goexit()
	default:
		panic("boom in " + method)
	}
}

func (m *misbehaving) Endpoint() replica.Endpoint {
	m.misbehave("Endpoint")
	m.misbehave("hangs in Endpoint")
	return m.mapReplica.Endpoint()
}

func (m *misbehaving) MaxDigestVersion() byte {
	m.misbehave("MaxDigestVersion")
	return digest.Latest
}

func (m *misbehaving) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if m.in == "times out every call" {
		<-ctx.Done() // a node never reached, as a client that honours ctx waits for it
		return replica.Response{}, ctx.Err()
	}
	if m.in == "nil error pointer" {
		resp, err := m.mapReplica.Read(ctx, cmd)
		if err != nil {
			return resp, err
		}
		var rpcErr *wireError // the RPC's error, nil when the call succeeded
		return resp, rpcErr
	}
	if cmd.Key == "missing" {
		m.misbehave("Read")
		m.misbehave("exits in Read")
	}
	return m.mapReplica.Read(ctx, cmd)
}

func (m *misbehaving) Apply(ctx context.Context, mu replica.Mutation) error {
	if m.in == "times out every call" {
		<-ctx.Done()
		return ctx.Err()
	}
	m.misbehave("Apply")
	return m.mapReplica.Apply(ctx, mu)
}

// wireError is an RPC's error, whose methods read its fields.
type wireError struct{ err error }

func (e *wireError) Error() string { return "rpc: " + e.err.Error() }
func (e *wireError) Unwrap() error { return e.err }

// misbehaviours maps each misbehaviour to the check it must fail, with what
// the failure must say, and a check it must leave to pass.
var misbehaviours = map[string]struct{ check, says, passes string }{
	"Read":                 {"missing_partition", "data Read of \"missing\" panicked: boom in Read", "response_key"},
	"Apply":                {"apply_merges", "Apply of \"older first\" panicked: boom in Apply", "missing_partition"},
	"Endpoint":             {"endpoint", "Endpoint panicked: boom in Endpoint", "missing_partition"},
	"MaxDigestVersion":     {"missing_partition", "MaxDigestVersion panicked: boom in MaxDigestVersion", "endpoint"},
	"exits in Read":        {"missing_partition", "data Read of \"missing\" called runtime.Goexit", "response_key"},
	"hangs in Endpoint":    {"endpoint", "Endpoint did not return", "missing_partition"},
	"times out every call": {"read_time", "did not answer within 100ms", "endpoint"},
	"nil error pointer":    {"missing_partition", "data Read of \"missing\" returned a nil *replicatest_test.wireError as its error", "endpoint"},
}

// TestMisbehavingReplicaHelper runs the conformance check over each
// misbehaving replica when TestConformanceSurvivesPanicsAndHangs starts
// this test binary again; run directly, it does nothing.
func TestMisbehavingReplicaHelper(t *testing.T) {
	if os.Getenv("REPLICATEST_MISBEHAVING") != "1" {
		t.Skip("run by TestConformanceSurvivesPanicsAndHangs")
	}
	defer goleak.VerifyNone(t) // TestMain's check runs only if every test passed
	replicatest.SetCallTimeouts(t, 500*time.Millisecond, 100*time.Millisecond)
	for in := range misbehaviours {
		t.Run(in, func(t *testing.T) {
			if in == "times out every call" {
				// Each check fails at its first call, so this case takes
				// about 15 × 150 ms; its passing check's Endpoint call must
				// still answer within them on a loaded host under -race.
				replicatest.SetCallTimeouts(t, 100*time.Millisecond, 50*time.Millisecond)
			}
			replicatest.TestReplica(t, func(t *testing.T) replica.Replica {
				m := &misbehaving{mapReplica: newMapReplica(mutant{}), in: in, release: make(chan struct{})}
				t.Cleanup(func() { close(m.release) })
				return m
			})
		})
	}
}

// A replica that panics in a call (or ends its goroutine) fails the check
// that made the call, naming the call, the panic's value and the
// replica's stack, instead of crashing the test binary, and the other
// checks run; one that hangs in a call without a context (Endpoint) fails
// the check after the call's timeout instead of wedging the run, and one
// that honours its context but answers no call fails each check at its
// first call's timeout, not at each of its hundreds of calls'. The child
// process's goleak finds no goroutine of the check left once the hung
// calls are released.
func TestConformanceSurvivesPanicsAndHangs(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestMisbehavingReplicaHelper$", "-test.v", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), "REPLICATEST_MISBEHAVING=1")
	out, _ := cmd.CombinedOutput()
	for _, crash := range []string{"\npanic: ", "panic: test timed out", "found unexpected goroutines"} {
		if strings.Contains(string(out), crash) {
			t.Errorf("the child's output says %q", crash)
		}
	}
	for in, m := range misbehaviours {
		prefix := "TestMisbehavingReplicaHelper/" + strings.ReplaceAll(in, " ", "_") + "/"
		for _, want := range []string{"--- FAIL: " + prefix + m.check + " ", m.says, "--- PASS: " + prefix + m.passes + " "} {
			if !strings.Contains(string(out), want) {
				t.Errorf("misbehaviour %q: no %q in the output", in, want)
			}
		}
	}
	for _, frame := range []string{"(*misbehaving).Read", "(*misbehaving).Apply", "(*misbehaving).Endpoint", "(*misbehaving).MaxDigestVersion"} {
		if !strings.Contains(string(out), frame) {
			t.Errorf("no replica's stack holds %s", frame)
		}
	}
	if t.Failed() {
		t.Logf("the child's output:\n%s", out)
	}
}
