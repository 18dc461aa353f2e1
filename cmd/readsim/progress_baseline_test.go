package main

import (
	"bytes"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The progress bar counts and names the NEVER baseline that runs when
// -policies does not list it. It counted one run per listed policy, so the
// baseline ran under the last policy's label, and the bar stood at "1/1"
// while a second run went on.
func TestProgressNamesTheUnlistedBaseline(t *testing.T) {
	o, err := parseFlags([]string{"-reads", "100", "-scenarios", "healthy", "-policies", "ALWAYS"})
	require.NoError(t, err)
	o.meter = fixedMeter(0)
	require.Equal(t, 2, runs(o), "ALWAYS and the baseline")
	var bar bytes.Buffer
	synctest.Test(t, func(*testing.T) {
		_, err = simulate(o, &progress{w: &bar, total: runs(o)})
	})
	require.NoError(t, err)
	steps := strings.Split(bar.String(), "\r\033[K")
	require.Len(t, steps, 4, "%q", bar.String()) // "", two steps, done
	assert.True(t, strings.HasSuffix(steps[1], " 1/2 healthy ALWAYS"), "%q", steps[1])
	assert.True(t, strings.HasSuffix(steps[2], " 2/2 healthy NEVER (baseline)"), "%q", steps[2])
}
