package readpath_test

import (
	"strings"
	"testing"
)

// The README's data model example is ExamplePartition_Visible_readme in
// replica/example_test.go: the same statements, and the view go test checks
// is the one the README shows (wrapped there over two comment lines).
func TestReadmeDataModelIsTheExample(t *testing.T) {
	readme := readFile(t, "README.md")
	block, ok := between(readme, "```go\nconst now = 1700000000", "```\n")
	if !ok {
		t.Fatal("README.md has no data model example")
	}
	code, shown, ok := strings.Cut("const now = 1700000000"+block, "fmt.Println(p.Visible(now))\n")
	if !ok {
		t.Fatal("the README's data model example prints no view")
	}

	example := readFile(t, "replica/example_test.go")
	fn, ok := between(example, "func ExamplePartition_Visible_readme() {\n", "\n}\n")
	if !ok {
		t.Fatal("replica/example_test.go has no ExamplePartition_Visible_readme")
	}
	body, output, ok := strings.Cut(fn, "\tfmt.Println(p.Visible(now))\n\t// Output:\n")
	if !ok {
		t.Fatal("ExamplePartition_Visible_readme checks no printed view")
	}
	var unindented strings.Builder
	for line := range strings.Lines(body) {
		unindented.WriteString(strings.TrimPrefix(line, "\t"))
	}
	if code != unindented.String() {
		t.Errorf("the README's data model example differs from ExamplePartition_Visible_readme:\n%s\nwant:\n%s", code, unindented.String())
	}
	var view []string
	for line := range strings.Lines(shown) {
		view = append(view, strings.TrimSpace(strings.TrimPrefix(line, "//")))
	}
	if got, want := strings.Join(view, " "), strings.TrimPrefix(output, "\t// "); got != want {
		t.Errorf("the README shows\n%s\nwhere the example prints\n%s", got, want)
	}
}
