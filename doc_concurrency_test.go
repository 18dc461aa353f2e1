package readpath_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// concurrencyStatement matches the house phrasings of STYLE.md's
// convention 5, "every exported type says whether it is safe for
// concurrent use": "(not) safe for concurrent use", "safe for concurrent
// reads", "may be shared between goroutines", "safe to share", "safe to
// copy and to share", "sharing it is safe".
var concurrencyStatement = regexp.MustCompile(`concurrent\s+(use|reads|mutation)|between\s+goroutines|` +
	`safe\s+to\s+(copy\s+and\s+to\s+)?share|sharing\s+it\s+is\s+safe`)

// Every exported type of every package but the commands says whether it is
// safe for concurrent use, so that a caller need not read the code to know.
func TestExportedTypesStateConcurrency(t *testing.T) {
	for _, dir := range packageDirs(t) {
		for _, typ := range exportedTypes(t, dir) {
			if !concurrencyStatement.MatchString(typ.Doc) {
				t.Errorf("%s.%s: its doc does not say whether it is safe for concurrent use",
					dir, typ.Name)
			}
		}
	}
}

// packageDirs returns the directories below the module's root that hold
// non-test Go files, but for cmd and testdata.
func packageDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path == "cmd" || name == "testdata" || path != "." && strings.HasPrefix(name, ".") {
			return filepath.SkipDir
		}
		if len(goFiles(t, path)) > 0 {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// goFiles returns the names of the non-test Go files in dir.
func goFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			names = append(names, filepath.Join(dir, name))
		}
	}
	return names
}

// exportedTypes returns the documentation of dir's exported types.
func exportedTypes(t *testing.T, dir string) []*doc.Type {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range goFiles(t, dir) {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, dir)
	if err != nil {
		t.Fatal(err)
	}
	return p.Types
}
