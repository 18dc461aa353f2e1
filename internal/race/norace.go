//go:build !race

// Package race reports whether the race detector is on, for tests whose
// claims it changes: it drops objects put in a sync.Pool at random, so
// pooled paths that allocate nothing allocate under -race.
package race

// Enabled is true in a build with the race detector.
const Enabled = false
