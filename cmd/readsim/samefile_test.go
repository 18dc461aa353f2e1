package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -plot, -cpuprofile and -trace each write a file of their own: two of
// them naming one file is a bad command line, refused before the run. It
// ran: -cpuprofile and -trace wrote through two descriptors into the same
// file, each over the other, and a -plot renamed its chart over the
// profile of the same name, so the run ended with a corrupt file, or no
// profile, and exit status 0 (found by review).
func TestOutputFlagsNamingOneFileAreABadCommandLine(t *testing.T) {
	dir := t.TempDir()
	same := filepath.Join(dir, "out.svg")
	for _, args := range [][]string{
		{"-cpuprofile", same, "-trace", same},
		{"-plot", same, "-cpuprofile", same},
		{"-plot", same, "-trace", filepath.Join(dir, ".", "out.svg")},
	} {
		var out, errs bytes.Buffer
		noRun := func() func() timing { t.Fatalf("%q: the run started", args); return nil }
		code := runWith(noRun, append([]string{"-quick"}, args...), &out, &errs)
		assert.Equal(t, 2, code, "%q", args)
		assert.Equal(t, 1, strings.Count(errs.String(), "\n"), "%q: %s", args, errs.String())
		assert.Contains(t, errs.String(), "readsim: "+args[0]+" and "+args[2]+": the same file", "%q", args)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.Empty(t, entries, "%q: a bad command line left a file behind", args)
	}
}
