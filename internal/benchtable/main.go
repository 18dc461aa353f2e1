// Command benchtable builds the README's benchmark table from the output
// of the benchmark loop the README gives: the median of every benchmark's
// runs at -cpu 1 and at -cpu 2, beside its reference's, with the ratio
// checked against the row's target. The rows, their references and their
// targets are those of the table already in the README; only the figures
// are computed.
//
// Usage:
//
//	go run ./internal/benchtable [-w] new.txt README.md
//
// It prints the table, or with -w writes it into README.md in place.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	write := flag.Bool("w", false, "write the table into the README instead of printing it")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchtable [-w] BENCH_OUTPUT README.md")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Arg(1), *write); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func run(benchPath, readmePath string, write bool) error {
	out, err := os.ReadFile(benchPath)
	if err != nil {
		return err
	}
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		return err
	}
	updated, table, err := Rebuild(string(readme), Parse(string(out)))
	if err != nil {
		return err
	}
	if !write {
		fmt.Print(table)
		return nil
	}
	return os.WriteFile(readmePath, []byte(updated), 0o644)
}
