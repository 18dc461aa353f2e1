package coordinator

import (
	"iter"

	"github.com/readpath/readpath/replica"
)

// VisibleRows yields Visible's rows in the order the query asked for them:
// descending for a reversed query, as CQL returns them. Visible, like a
// partition, holds them in clustering order, so that every caller of a
// reversed query walked each page from its end.
func (r Result) VisibleRows() iter.Seq[replica.ViewRow] {
	rows := r.Visible().Rows
	return func(yield func(replica.ViewRow) bool) {
		for i := range rows {
			if r.query.Reversed {
				i = len(rows) - 1 - i
			}
			if !yield(rows[i]) {
				return
			}
		}
	}
}
