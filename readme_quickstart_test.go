package readpath_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The README's quick start is ExampleCoordinator_Read as a program: the
// same statements and the same output, and imports that are exactly the
// packages it uses, so that what a newcomer copies is what go test checks.
func TestReadmeQuickStartIsTheExample(t *testing.T) {
	readme := readFile(t, "README.md")
	section, ok := between(readme, "## Quick start\n", "\n## ")
	if !ok {
		t.Fatal("README.md has no Quick start section")
	}
	program, ok := between(section, "```go\n", "```\n")
	if !ok {
		t.Fatal("the Quick start has no Go block")
	}
	printed, ok := between(section, "It prints:\n\n```\n", "```\n")
	if !ok {
		t.Fatal("the Quick start does not show what the program prints")
	}

	example := readFile(t, "coordinator/example_test.go")
	fn, ok := between(example, "func ExampleCoordinator_Read() {\n", "\n}\n")
	if !ok {
		t.Fatal("coordinator/example_test.go has no ExampleCoordinator_Read")
	}
	body, output, ok := strings.Cut(fn, "\t// Output:\n")
	if !ok {
		t.Fatal("ExampleCoordinator_Read checks no output")
	}

	mainBody, ok := between(program, "func main() {\n", "\n}\n")
	if !ok {
		t.Fatal("the Quick start's program has no main")
	}
	if mainBody += "\n"; mainBody != body {
		t.Errorf("the Quick start's main differs from ExampleCoordinator_Read's body:\n%s\nwant:\n%s", mainBody, body)
	}
	if want := uncomment(output); printed != want {
		t.Errorf("the Quick start prints\n%s\nwhere the example's output is\n%s", printed, want)
	}
	checkImports(t, program)
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// between returns the text after the first start and before the next end.
func between(s, start, end string) (string, bool) {
	_, after, ok := strings.Cut(s, start)
	if !ok {
		return "", false
	}
	in, _, ok := strings.Cut(after, end)
	return in, ok
}

// uncomment turns an example's "\t// line" output comments into the lines.
func uncomment(output string) string {
	var b strings.Builder
	for line := range strings.Lines(output) {
		b.WriteString(strings.TrimPrefix(line, "\t// "))
	}
	return b.String() + "\n"
}

// checkImports parses program and checks that it imports exactly the
// packages its selectors name.
func checkImports(t *testing.T, program string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "quickstart.go", program, 0)
	if err != nil {
		t.Fatalf("the Quick start does not parse: %v", err)
	}
	var imported []string
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		imported = append(imported, path[strings.LastIndex(path, "/")+1:])
	}
	local := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, e := range as.Lhs {
				local[e.(*ast.Ident).Name] = true
			}
		}
		return true
	})
	var used []string // the packages: what selectors select from, not declared here
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && !local[id.Name] && !slices.Contains(used, id.Name) {
				used = append(used, id.Name)
			}
		}
		return true
	})
	slices.Sort(imported)
	slices.Sort(used)
	if !slices.Equal(imported, used) {
		t.Errorf("the Quick start imports %v and uses %v", imported, used)
	}
}
