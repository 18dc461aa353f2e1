package main

import (
	"encoding/json"
	"fmt"
	"io"
)

// report prints the rows as a table or JSON, then draws the plot if asked:
// rows that took minutes to measure are printed even if the plot fails.
func report(rows []row, o options, w io.Writer) error {
	if err := printRows(rows, o.json, w); err != nil {
		return err
	}
	if o.chart == nil {
		return nil
	}
	if err := drawPlot(rows, o.chart); err != nil {
		return err
	}
	if o.json {
		return nil
	}
	_, err := fmt.Fprintf(w, "\nplot: %s\n", o.plot)
	return err
}

func printRows(rows []row, asJSON bool, w io.Writer) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	_, err := io.WriteString(w, renderRows(rows))
	return err
}
