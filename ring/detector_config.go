package ring

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/readpath/readpath/replica"
)

// DetectorConfig configures a Detector. Zero fields take the documented
// defaults; NewDetector rejects invalid values with a *ConfigError. It is
// a plain value, safe for concurrent reads.
type DetectorConfig struct {
	// PhiConvictThreshold convicts a node whose heartbeats' phi exceeds it.
	// Default 8, Cassandra's phi_convict_threshold: about 18.4 mean
	// heartbeat intervals of silence. Any positive finite value is taken,
	// where Cassandra refuses one outside 5–16.
	PhiConvictThreshold float64
	// WindowSize is the number of heartbeat intervals phi averages.
	// Default 1000. A node's window takes 8 bytes an interval, allocated
	// as its heartbeats arrive.
	WindowSize int
	// InitialInterval is the interval a node's first heartbeat records.
	// Default 2 s (Cassandra's: twice its 1 s gossip interval); set it to
	// about twice your heartbeat period.
	InitialInterval time.Duration
	// MaxInterval is the longest interval recorded; longer silences are
	// not learnt. Default InitialInterval.
	MaxInterval time.Duration
	// CheckInterval is how often phi is evaluated, as Cassandra evaluates
	// it every gossip round, and, with Replicas, how often a probed node's
	// connection is looked up for a replacement. Default 1 s.
	CheckInterval time.Duration
	// MaxLocalPause: when two evaluations of phi were more than this
	// apart, the detector's own process stalled (a VM pause, a stopped
	// process, an OnChange that blocked), and the heartbeats that arrived
	// meanwhile may not be reported yet; phi convicts no node for
	// MaxLocalPause after such a stall, instead of convicting them all.
	// Default 5 s, Cassandra's max_local_pause_in_ms, or five
	// CheckIntervals if that is longer; at least two CheckIntervals;
	// negative turns the guard off.
	MaxLocalPause time.Duration
	// ConnectionFailures is the number of connection failures in a row
	// (replica.IsConnectionFailure; a success resets the count) that
	// convict a replica. Default 1: like gocql, the first refused
	// connection convicts, since a probe soon readmits a node that is up.
	// At most 2^31-1.
	ConnectionFailures int
	// Probe schedules the probes of a replica convicted for connection
	// failures whose replica.Replica is a replica.Prober.
	Probe Backoff
	// Replicas, if not nil, returns node id's current connection and
	// whether it knows the node: Locator.Replica fits. A node convicted for
	// connection failures is then probed through its current connection,
	// not the one whose failure convicted it, so that a node replaced under
	// the same ID, or removed and added again, is readmitted through its
	// new connection: the current connection's being a replica.Prober or
	// not chooses between probes and ReadmitAfter, and a new connection is
	// looked for every CheckInterval and probed at once, the backoff
	// starting again: return the same value, a pointer say, for a
	// connection that has not changed. A value unequal to the last (a
	// wrapper made afresh at each call) is taken for a new connection at
	// every look, and one of a type == cannot compare for the same one,
	// whose replacement is then probed on the backoff's schedule. Without
	// it, or for an id it does not know, the failed connection is probed.
	// It is called on the detector's goroutines, never under its locks, and
	// must be fast and safe for concurrent use. It must not call Close,
	// which waits for those goroutines; a call that panics is a failed
	// probe.
	Replicas func(id string) (replica.Replica, bool)
	// ProbeTimeout bounds each probe: a probe that has not answered by then
	// fails, and is abandoned if it ignores its context. Default 1 s.
	ProbeTimeout time.Duration
	// ReadmitAfter readmits a replica convicted for connection failures
	// that has no Prober this long after its conviction. Default 5 s.
	ReadmitAfter time.Duration
	// OnChange, if not nil, is told of every transition between up and
	// down, in order, from a goroutine of the detector. It must not call
	// Close; a call that panics is abandoned, and the detector goes on.
	OnChange func(Change)
	// Seed seeds the probes' jitter; 0 picks a random seed.
	Seed uint64
}

func (c DetectorConfig) withDefaults() DetectorConfig {
	c.PhiConvictThreshold = orFloat(c.PhiConvictThreshold, 8)
	c.WindowSize = orInt(c.WindowSize, 1000)
	c.InitialInterval = orDuration(c.InitialInterval, 2*time.Second)
	c.MaxInterval = orDuration(c.MaxInterval, c.InitialInterval)
	c.CheckInterval = orDuration(c.CheckInterval, time.Second)
	c.MaxLocalPause = orDuration(c.MaxLocalPause, max(5*time.Second, times(5, c.CheckInterval)))
	c.ConnectionFailures = orInt(c.ConnectionFailures, 1)
	c.Probe = c.Probe.withDefaults()
	c.ProbeTimeout = orDuration(c.ProbeTimeout, time.Second)
	c.ReadmitAfter = orDuration(c.ReadmitAfter, 5*time.Second)
	return c
}

// times is n·d for a positive d, saturating instead of overflowing.
func times(n int64, d time.Duration) time.Duration {
	if d > time.Duration(math.MaxInt64/n) {
		return math.MaxInt64
	}
	return time.Duration(n) * d
}

func orFloat(v, d float64) float64 {
	if v == 0 {
		return d
	}
	return v
}

func orInt(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}

func orDuration(v, d time.Duration) time.Duration {
	if v == 0 {
		return d
	}
	return v
}

// validate checks a configuration with its defaults applied.
func (c DetectorConfig) validate() error {
	if !(c.PhiConvictThreshold > 0) || math.IsInf(c.PhiConvictThreshold, 1) {
		return &ConfigError{Setting: "PhiConvictThreshold", Reason: fmt.Sprintf("%v is not a positive finite number", c.PhiConvictThreshold)}
	}
	if c.WindowSize < 0 {
		return &ConfigError{Setting: "WindowSize", Reason: "negative " + strconv.Itoa(c.WindowSize)}
	}
	if c.ConnectionFailures < 0 {
		return &ConfigError{Setting: "ConnectionFailures", Reason: "negative " + strconv.Itoa(c.ConnectionFailures)}
	}
	if c.ConnectionFailures > math.MaxInt32 { // the count is an int32: it would never get there
		return &ConfigError{Setting: "ConnectionFailures", Reason: strconv.Itoa(c.ConnectionFailures) + " is over 2^31-1"}
	}
	for _, s := range []struct {
		name string
		d    time.Duration
	}{ // in order: a negative InitialInterval is the default MaxInterval too
		{"InitialInterval", c.InitialInterval}, {"MaxInterval", c.MaxInterval}, {"CheckInterval", c.CheckInterval},
		{"ProbeTimeout", c.ProbeTimeout}, {"ReadmitAfter", c.ReadmitAfter},
	} {
		if s.d < 0 {
			return &ConfigError{Setting: s.name, Reason: "negative duration " + s.d.String()}
		}
	}
	// What NewArrivalWindow checks, with the setting at fault named.
	limit := time.Duration(math.MaxInt64 / int64(max(c.WindowSize, 1)))
	for _, s := range []struct {
		name string
		d    time.Duration
	}{{"InitialInterval", c.InitialInterval}, {"MaxInterval", c.MaxInterval}} {
		if s.d > limit {
			return &ConfigError{Setting: s.name, Reason: fmt.Sprintf("%v is over %v, so that WindowSize %d of them would not add up", s.d, limit, c.WindowSize)}
		}
	}
	if _, err := NewArrivalWindow(c.WindowSize, c.InitialInterval, c.MaxInterval); err != nil {
		return err
	}
	if c.MaxLocalPause >= 0 && c.MaxLocalPause < times(2, c.CheckInterval) {
		return &ConfigError{Setting: "MaxLocalPause", Reason: c.MaxLocalPause.String() + " is under twice CheckInterval " + c.CheckInterval.String() + ": it must be at least that, or negative for no guard"}
	}
	return c.Probe.validate()
}
