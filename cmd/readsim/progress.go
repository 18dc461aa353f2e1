package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// progress draws a bar on a terminal, and nothing when its writer is not
// one (a pipe, a file, a test's buffer).
type progress struct {
	w     io.Writer // nil: draw nothing
	total int
	n     int
}

func newProgress(w io.Writer, total int) *progress {
	if f, ok := w.(*os.File); ok && isTerminal(f) {
		return &progress{w: w, total: total}
	}
	return &progress{total: total}
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// step announces the next run.
func (p *progress) step(what string) {
	p.n++
	if p.w == nil {
		return
	}
	const width = 30
	filled := width * (p.n - 1) / max(1, p.total)
	fmt.Fprintf(p.w, "\r\033[K[%s%s] %d/%d %s", strings.Repeat("#", filled), strings.Repeat("-", width-filled), p.n, p.total, what)
}

// done clears the bar.
func (p *progress) done() {
	if p.w != nil {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
