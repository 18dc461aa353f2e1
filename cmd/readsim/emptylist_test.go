package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

// An empty -scenarios list is refused as an empty -policies list is: in
// the same words, naming the flag. It read `unknown scenario ""`, as if
// the user had misspelt a scenario's name.
func TestEmptyScenarioListIsSaidSo(t *testing.T) {
	for flagName, want := range map[string]string{
		"-scenarios": "readsim: -scenarios: an empty list\n",
		"-policies":  "readsim: -policies: an empty list\n",
	} {
		var out, errs bytes.Buffer
		noRun := func() func() timing { t.Fatalf("%s: the run started", flagName); return nil }
		assert.Equal(t, 2, runWith(noRun, []string{flagName + "="}, &out, &errs), flagName)
		assert.Equal(t, want, errs.String(), flagName)
	}
}
