package replica

import (
	"strconv"
	"strings"
)

// String returns q as one line: its slices, or "all rows" for nil Slices
// and "no rows" for an empty list (which fmt's %v prints alike, as []),
// then "reversed" and its limit, if set: ["a", "c"] ("d", max) reversed
// limit 10.
func (q Query) String() string {
	var b strings.Builder
	switch {
	case q.Slices == nil:
		b.WriteString("all rows")
	case len(q.Slices) == 0:
		b.WriteString("no rows")
	}
	for i, s := range q.Slices {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.String())
	}
	if q.Reversed {
		b.WriteString(" reversed")
	}
	if q.Limit != 0 {
		b.WriteString(" limit " + strconv.Itoa(q.Limit))
	}
	return b.String()
}
