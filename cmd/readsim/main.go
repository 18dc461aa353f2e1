package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is readsim with its arguments and outputs: exit status 0, 1 on a
// failed run, 2 on a bad command line.
func run(args []string, stdout, stderr io.Writer) int {
	return runWith(startProbe, args, stdout, stderr)
}

// runWith is run with m measuring the machine around every run.
func runWith(m meter, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args)
	o.meter = m
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage())
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "readsim: %v\n", unwrapUsage(err))
		return 2
	}
	if o.chart, err = createChartFile(o.plot); err != nil {
		fmt.Fprintf(stderr, "readsim: %v\n", err)
		return 2
	}
	stopProfiles, err := startProfiles(o)
	if errors.Is(err, errUsage) {
		fmt.Fprintf(stderr, "readsim: %v\n", unwrapUsage(err))
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "readsim: %v\n", err)
		return 1
	}
	rows, err := simulate(o, newProgress(stderr, runs(o)))
	err = errors.Join(err, stopProfiles())
	if err == nil {
		err = report(rows, o, stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "readsim: %v\n", err)
		return 1
	}
	return 0
}

func unwrapUsage(err error) string {
	msg := err.Error()
	if prefix := errUsage.Error() + ": "; len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}

// simulate runs every scenario under every policy, with NEVER as each
// scenario's baseline for the extra load, run even when not asked for.
func simulate(o options, bar *progress) ([]row, error) {
	var rows []row
	for _, s := range o.scenarios {
		outs, baseline, err := simulateScenario(s, o, bar)
		if err != nil {
			return nil, err
		}
		for i, ideal := range ideals(outs, baseline, o.seed) {
			rows = append(rows, toRow(outs[i], baseline, ideal))
		}
	}
	bar.done()
	return rows, nil
}

// runs is how many runs simulate makes: one per scenario and policy, and
// one more per scenario for the NEVER baseline when no policy is NEVER.
func runs(o options) int {
	n := len(o.policies)
	if !slices.ContainsFunc(o.policies, func(j job) bool { return j.policy == "NEVER" }) {
		n++
	}
	return len(o.scenarios) * n
}

func simulateScenario(s scenario, o options, bar *progress) ([]outcome, outcome, error) {
	var outs []outcome
	var baseline *outcome
	for _, j := range o.policies {
		j.s = s
		bar.step(s.name + " " + j.policy)
		out, err := runJob(j, o)
		if err != nil {
			return nil, outcome{}, err
		}
		outs = append(outs, out)
		if j.policy == "NEVER" {
			baseline = &outs[len(outs)-1]
		}
	}
	if baseline == nil {
		never, _ := parsePolicies("NEVER")
		never[0].s = s
		bar.step(s.name + " NEVER (baseline)")
		out, err := runJob(never[0], o)
		if err != nil {
			return nil, outcome{}, err
		}
		baseline = &out
	}
	return outs, *baseline, nil
}
