package main

import (
	"encoding/json"
	"fmt"
	"io"
)

// report prints the rows as a table or JSON, and draws the plot if asked.
func report(rows []row, o options, w io.Writer) error {
	if o.chart != nil {
		if err := drawPlot(rows, o.chart); err != nil {
			return err
		}
	}
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	_, err := io.WriteString(w, renderRows(rows))
	if err == nil && o.plot != "" {
		_, err = fmt.Fprintf(w, "\nplot: %s\n", o.plot)
	}
	return err
}
