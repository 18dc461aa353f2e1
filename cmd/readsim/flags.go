package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/readpath/readpath/latency"
)

// defaultPolicies are the speculative-retry policies compared by default;
// quickPolicies, with -quick, are enough to show every effect.
const (
	defaultPolicies = "NEVER,ALWAYS,10ms,99p,95p,90p,MIN(99p,10ms)"
	quickPolicies   = "NEVER,ALWAYS,10ms,99p,90p"
)

// options are readsim's settings, from its flags.
type options struct {
	scenarios   []scenario
	policies    []job // scenario unset
	reads       int
	concurrency int
	seed        uint64
	quick       bool
	json        bool
	plot        string
	meter       meter // measures the machine around each run
}

// errUsage marks a bad command line: exit status 2.
var errUsage = errors.New("usage")

// parseFlags parses args; on a bad flag it returns an error wrapping
// errUsage with a one-line message.
func parseFlags(args []string) (options, error) {
	var o options
	var scenarioList, policyList string
	fs := flag.NewFlagSet("readsim", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&scenarioList, "scenarios", "all", "comma-separated scenarios to run, or all: "+scenarioNames())
	fs.StringVar(&policyList, "policies", "", "comma-separated speculative-retry policies, in Cassandra's grammar (default "+defaultPolicies+", or "+quickPolicies+" with -quick)")
	fs.IntVar(&o.reads, "reads", 0, "measured reads per scenario and policy, after a warm-up of a quarter as many; fanout measures a quarter as many requests of 100 reads each (default 4000, or 1000 with -quick)")
	fs.IntVar(&o.concurrency, "concurrency", 32, "concurrent readers in the closed-loop scenarios (healthy, gc-pauses, stale-replica, replica-down)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of every random choice: the same seed gives the same clusters and keys")
	fs.BoolVar(&o.quick, "quick", false, "a short run that still shows every effect")
	fs.BoolVar(&o.json, "json", false, "print the rows as a JSON array instead of a table")
	fs.StringVar(&o.plot, "plot", "", "also draw the latency percentiles to this file (.svg or .png)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, flag.ErrHelp
		}
		return o, fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return o, o.fill(scenarioList, policyList)
}

// fill checks the parsed values and resolves the lists.
func (o *options) fill(scenarioList, policyList string) error {
	if o.reads == 0 {
		o.reads = 4000
		if o.quick {
			o.reads = 1000
		}
	}
	if policyList == "" {
		policyList = defaultPolicies
		if o.quick {
			policyList = quickPolicies
		}
	}
	switch {
	case o.reads < 100:
		return fmt.Errorf("%w: -reads %d: at least 100", errUsage, o.reads)
	case o.concurrency < 2:
		return fmt.Errorf("%w: -concurrency %d: at least 2", errUsage, o.concurrency)
	case o.plot != "" && !strings.HasSuffix(o.plot, ".svg") && !strings.HasSuffix(o.plot, ".png"):
		return fmt.Errorf("%w: -plot %q: the file name must end in .svg or .png", errUsage, o.plot)
	}
	var err error
	if o.scenarios, err = parseScenarios(scenarioList); err != nil {
		return fmt.Errorf("%w: -scenarios: %v", errUsage, err)
	}
	if o.policies, err = parsePolicies(policyList); err != nil {
		return fmt.Errorf("%w: -policies: %v", errUsage, err)
	}
	return nil
}

func parseScenarios(list string) ([]scenario, error) {
	if list == "all" {
		return scenarios, nil
	}
	var out []scenario
	for _, name := range splitList(list) {
		s, err := scenarioNamed(name)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func parsePolicies(list string) ([]job, error) {
	var out []job
	for _, name := range splitList(list) {
		p, err := latency.ParseSpeculativeRetry(name)
		if err != nil {
			return nil, err
		}
		out = append(out, job{policy: p.String(), p: p})
	}
	return out, nil
}

// splitList splits on commas outside parentheses, so that MIN(99p,10ms)
// stays whole.
func splitList(list string) []string {
	var parts []string
	depth, from := 0, 0
	for i, r := range list {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == ',' && depth == 0:
			parts = append(parts, list[from:i])
			from = i + 1
		}
	}
	return append(parts, list[from:])
}
