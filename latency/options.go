package latency

import "time"

// DefaultWindow is how far back a Tracker looks unless WithWindow says
// otherwise.
const DefaultWindow = time.Minute

// subWindows is how many pieces a window is cut into. The window slides one
// piece at a time, so a query covers between (subWindows-1)/subWindows of the
// window and all of it; each piece costs one copy of the bucket counters.
const subWindows = 6

// Option configures a Tracker (and, through NewRegistry, every tracker of a
// registry).
type Option func(*trackerConfig)

type trackerConfig struct {
	window time.Duration
	clock  func() time.Time // nil: time.Now, read as cheaply as possible
}

// WithWindow sets how far back quantiles look: samples older than d no longer
// count. A window shorter than 6 ns (one nanosecond per sub-window) cannot be
// cut up and selects DefaultWindow instead; Tracker.Window reports the
// window in force.
func WithWindow(d time.Duration) Option {
	return func(c *trackerConfig) {
		if d >= subWindows {
			c.window = d
		} else {
			c.window = DefaultWindow
		}
	}
}

// WithClock sets the clock that ages samples; the default is time.Now, which
// inside a testing/synctest bubble is the bubble's virtual clock. A nil clock
// selects the default.
func WithClock(now func() time.Time) Option {
	return func(c *trackerConfig) { c.clock = now }
}

func newTrackerConfig(opts []Option) trackerConfig {
	c := trackerConfig{window: DefaultWindow}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}
