// Command benchtable builds the README's benchmark table from the output
// of the benchmark loop the README gives: the median of every benchmark's
// runs at -cpu 1 and at -cpu 2, beside its reference's, with the ratio
// checked against the row's target. The rows, their references and their
// targets are those of the table already in the README; only the figures
// are computed.
//
// Usage:
//
//	go run ./internal/benchtable [-w | -rounds] new.txt README.md
//
// It prints the table, or with -w writes it into README.md in place. With
// -rounds it prints instead each ratio's range over the loop's rounds, how
// many rounds meet its target, the same for each target on a benchmark's
// own figure ("≤ 20 ms"), and the benchmarks that varied most between
// rounds: what tells a target that holds from one that flips, and a quiet
// machine from a noisy one.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	write := flag.Bool("w", false, "write the table into the README instead of printing it")
	rounds := flag.Bool("rounds", false, "print the figures round by round instead of the table")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchtable [-w | -rounds] BENCH_OUTPUT README.md")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 || *write && *rounds {
		flag.Usage()
		os.Exit(2)
	}
	m := printTable
	switch {
	case *write:
		m = writeTable
	case *rounds:
		m = printRounds
	}
	if err := run(flag.Arg(0), flag.Arg(1), m); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// mode is what run does with the results.
type mode int

const (
	printTable mode = iota
	writeTable
	printRounds
)

func run(benchPath, readmePath string, m mode) error {
	out, err := os.ReadFile(benchPath)
	if err != nil {
		return err
	}
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		return err
	}
	rs := Parse(string(out))
	if m == printRounds {
		report, err := Rounds(string(readme), rs)
		if err != nil {
			return err
		}
		fmt.Print(report)
		return nil
	}
	updated, table, err := Rebuild(string(readme), rs)
	if err != nil {
		return err
	}
	if m == printTable {
		fmt.Print(table)
		return nil
	}
	return os.WriteFile(readmePath, []byte(updated), 0o644)
}
