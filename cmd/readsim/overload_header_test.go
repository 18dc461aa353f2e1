package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A row flagged because goroutines waited over 5 ms to run, its probe
// waking on time, is named under a header that gives that reason too: the
// header said only "1 wake-up in 100 over 5 ms late", beside a late column
// of 3.1 ms (the README's own table shows it).
func TestOverloadHeaderNamesBothCauses(t *testing.T) {
	tm := timing{LateP99: 3.1, SchedP99: 5.2}
	r := row{Scenario: "fanout", Policy: "10ms", Latencies: 1000, Timing: tm, Warning: tm.warning(), Trustworthy: tm.warning() == ""}
	header, _, _ := strings.Cut(overloadWarning([]row{r}), "\n")
	assert.Contains(t, header, "1 wake-up in 100 over 5 ms late")
	assert.Contains(t, header, "goroutines may have waited that long to run")
}
