package readpath_test

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// maxCommentWidth is the widest a comment line of the library may be, in
// characters, its indentation's tabs counted as four.
const maxCommentWidth = 100

// No comment line of a package but the commands is wider than
// maxCommentWidth, but for a doc comment's code blocks (lines that go on
// with a tab), where a line of code may be wider.
func TestCommentLinesFitTheWidth(t *testing.T) {
	for _, dir := range packageDirs(t) {
		for _, name := range goFiles(t, dir) {
			for i, line := range strings.Split(readFile(t, name), "\n") {
				text := strings.TrimLeft(line, "\t")
				if !strings.HasPrefix(text, "//") || strings.HasPrefix(text, "//\t") {
					continue
				}
				width := 4*(len(line)-len(text)) + utf8.RuneCountInString(text)
				if width > maxCommentWidth {
					t.Errorf("%s:%d: a comment line %d characters wide", name, i+1, width)
				}
			}
		}
	}
}
