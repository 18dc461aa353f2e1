package readpath_test

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The README's set-up section counts the fuzz targets whose seed corpora
// go test runs, and the packages holding them: the count is what the
// repository holds, so that a target added updates the sentence (39 in
// eight stood beside 40 in nine).
func TestReadmeCountsTheFuzzTargets(t *testing.T) {
	target := regexp.MustCompile(`(?m)^func Fuzz\w*\(\w+ \*testing\.F\)`)
	var targets int
	var pkgs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != "." && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir // .git, and a testdata's hidden files
		case d.IsDir() || !strings.HasSuffix(path, "_test.go"):
			return nil
		}
		n := len(target.FindAllIndex([]byte(readFile(t, path)), -1))
		if n > 0 && !slices.Contains(pkgs, filepath.Dir(path)) {
			pkgs = append(pkgs, filepath.Dir(path))
		}
		targets += n
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	claim := regexp.MustCompile(`seed corpora of\s+(\d+) fuzz\s+targets in\s+(\w+)\s+packages`)
	m := claim.FindStringSubmatch(readFile(t, "README.md"))
	if m == nil {
		t.Fatal("README.md does not count the fuzz targets")
	}
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve"}
	want := [2]string{strconv.Itoa(targets), strconv.Itoa(len(pkgs))}
	if len(pkgs) < len(words) {
		want[1] = words[len(pkgs)]
	}
	if got := [2]string{m[1], m[2]}; got != want {
		t.Errorf("README.md says %s fuzz targets in %s packages; the repository holds %s in %s (%v)",
			got[0], got[1], want[0], want[1], pkgs)
	}
}
