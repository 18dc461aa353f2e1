package coordinator_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// errEndpointPanic is what the panicky replicas panic with.
var errEndpointPanic = errors.New("replica: method panicked")

// panickyEndpoint is a replica whose Endpoint panics.
type panickyEndpoint struct{ replica.Replica }

func (panickyEndpoint) Endpoint() replica.Endpoint { panic(errEndpointPanic) }

// panickyVersion is a replica whose MaxDigestVersion panics.
type panickyVersion struct{ replica.Replica }

func (panickyVersion) MaxDigestVersion() byte { panic(errEndpointPanic) }

// readRecovering reads key at QUORUM through c and reports a panic
// that escaped Read instead of crashing the test binary.
func readRecovering(c *coordinator.Coordinator) (res coordinator.Result, panicked any, err error) {
	defer func() { panicked = recover() }()
	res, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
	return res, nil, err
}

// DESIGN.md §4: a replica that panics must not crash the coordinator: the
// read ends with a typed error. A replica whose Endpoint panics crashes
// the caller's goroutine out of Read.
func TestReplicaEndpointPanics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		locate := wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return panickyEndpoint{r} })
		c, err := coordinator.New(coordinator.Config{Locator: locate, DefaultTable: policy(t, "4ms")})
		require.NoError(t, err)
		defer c.Close()

		_, panicked, err := readRecovering(c)
		require.Nil(t, panicked, "a replica's panic in Endpoint escaped Read")
		assert.Error(t, err)
	})
}

// nilPanickyEndpoint is a replica whose Endpoint panics with a nil *rpcError.
type nilPanickyEndpoint struct{ replica.Replica }

func (nilPanickyEndpoint) Endpoint() replica.Endpoint { panic((*rpcError)(nil)) }

// A replica whose Endpoint panics with a nil pointer error fails the read with an error
// wrapping ErrBadPlacement that does not wrap the nil pointer: errors.Is, walking the chain
// through (*rpcError).Unwrap, would crash Read, which walks it, or its caller
// (replicaPanicked wraps only an error that holds none, as PanicError.Unwrap does).
func TestAnEndpointPanickingWithANilPointerLeavesAnErrorSafeToWalk(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		nilPanicky := func(r replica.Replica) replica.Replica { return nilPanickyEndpoint{r} }
		locate := wrapping(e.cluster, 1, nilPanicky)
		c, err := coordinator.New(coordinator.Config{Locator: locate, DefaultTable: policy(t, "4ms")})
		require.NoError(t, err)
		defer c.Close()

		_, panicked, err := readRecovering(c)
		require.Nil(t, panicked, "a replica's panic in Endpoint escaped Read")
		require.ErrorIs(t, err, coordinator.ErrBadPlacement)
		assert.NotPanics(t, func() { errors.Is(err, context.Canceled) }, "walking %q", err)
	})
}

// The same for a replica whose MaxDigestVersion panics.
func TestReplicaMaxDigestVersionPanics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		locate := wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return panickyVersion{r} })
		c, err := coordinator.New(coordinator.Config{Locator: locate, DefaultTable: policy(t, "4ms")})
		require.NoError(t, err)
		defer c.Close()

		_, panicked, err := readRecovering(c)
		require.Nil(t, panicked, "a replica's panic in MaxDigestVersion escaped Read")
		_ = err
	})
}

// crashChildEnv is set in the child process of
// TestReadManyEndpointPanicDoesNotCrashTheProcess.
const crashChildEnv = "READPATH_MISBEHAVE_CRASH_CHILD"

// ReadMany reads its keys on goroutines the library starts, where nothing
// recovers: a replica whose Endpoint panics takes the whole process down,
// which no caller can prevent. The read runs in a child process (the test
// binary itself), which must exit cleanly.
func TestReadManyEndpointPanicDoesNotCrashTheProcess(t *testing.T) {
	if os.Getenv(crashChildEnv) != "" {
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{})
			locate := wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return panickyEndpoint{r} })
			c, err := coordinator.New(coordinator.Config{Locator: locate})
			require.NoError(t, err)
			defer c.Close()
			func() {
				defer func() { _ = recover() }() // the caller does all it can
				_, _ = c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{key, "k2"}, Level: consistency.Quorum})
			}()
		})
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReadManyEndpointPanicDoesNotCrashTheProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the process crashed:\n%s", firstLines(string(out), 8))
}

// A Locator that panics under ReadMany, on a goroutine the library
// started, reaches ReadMany's caller, as it reaches Read's, with its value,
// once the other keys' reads have returned; the coordinator goes on.
func TestReadManyRaisesALocatorPanicOnTheCallersGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		boom := errors.New("locator: ring not loaded")
		locate := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
			if k == "k3" {
				panic(boom)
			}
			return e.cluster.Locate(table, k)
		})
		c, err := coordinator.New(coordinator.Config{Locator: locate, Liveness: e.cluster})
		require.NoError(t, err)
		defer c.Close()
		keys := []string{key, "k2", "k3", "k4", "k5"}
		var got any
		func() {
			defer func() { got = recover() }()
			_, _ = c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.Quorum, Concurrency: 2})
		}()
		assert.Equal(t, boom, got)
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		assert.NoError(t, err, "the coordinator goes on")
	})
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
