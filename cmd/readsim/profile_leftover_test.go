package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A bad command line changes nothing, as -plot's check promises and
// TestUnwritableProfileIsABadCommandLine checks for one flag at a time:
// with a good -cpuprofile and an unwritable -trace, readsim exits 2
// before any run, but had already created (or truncated) the profile's
// file and written an empty profile to it, destroying the one an earlier
// run left there.
func TestBadProfileFlagLeavesTheOtherProfileAlone(t *testing.T) {
	dir := t.TempDir()
	cpu := filepath.Join(dir, "cpu.out")
	earlier := []byte("an earlier run's profile")
	require.NoError(t, os.WriteFile(cpu, earlier, 0o644))
	var out, errs bytes.Buffer
	noRun := func() func() timing { t.Fatal("the run started"); return nil }
	code := runWith(noRun, []string{"-quick", "-cpuprofile", cpu, "-trace", filepath.Join(dir, "missing", "trace.out")}, &out, &errs)
	require.Equal(t, 2, code, errs.String())
	got, err := os.ReadFile(cpu)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(earlier, got), "a bad command line overwrote -cpuprofile's file with %d bytes", len(got))

	fresh := filepath.Join(dir, "fresh.out")
	code = runWith(noRun, []string{"-quick", "-cpuprofile", fresh, "-trace", dir}, &out, &errs)
	require.Equal(t, 2, code, errs.String())
	assert.NoFileExists(t, fresh, "a bad command line left a file behind")
}
