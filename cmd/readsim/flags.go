package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
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
	readsSet    bool // -reads was given: -quick does not change it
	concurrency int
	seed        uint64
	quick       bool
	json        bool
	plot        string
	cpuProfile  string
	trace       string
	meter       meter      // measures the machine around each run
	chart       *chartFile // where -plot draws, checked before the run
}

// errUsage marks a bad command line: exit status 2.
var errUsage = errors.New("usage")

// parseFlags parses args; on a bad flag it returns an error wrapping
// errUsage with a one-line message, and flag.ErrHelp for -h.
func parseFlags(args []string) (options, error) {
	var o options
	var lists flagLists
	fs := newFlagSet(&o, &lists)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, flag.ErrHelp
		}
		return o, fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o.readsSet = set["reads"]
	for _, name := range []string{"scenarios", "policies"} {
		if set[name] && fs.Lookup(name).Value.String() == "" {
			return o, fmt.Errorf("%w: -%s: an empty list", errUsage, name)
		}
	}
	return o, o.fill(lists.scenarios, lists.policies)
}

// flagLists are the flags parsed into lists by fill.
type flagLists struct{ scenarios, policies string }

// newFlagSet defines readsim's flags over o and lists. A default that
// -quick changes is 0 or empty here and spelled out in the description.
func newFlagSet(o *options, lists *flagLists) *flag.FlagSet {
	fs := flag.NewFlagSet("readsim", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&lists.scenarios, "scenarios", "all", "`list` of scenarios to run, comma-separated, or all: "+scenarioNames())
	fs.StringVar(&lists.policies, "policies", "", "`list` of speculative-retry policies, comma-separated, in Cassandra's grammar (default "+defaultPolicies+", or "+quickPolicies+" with -quick); NEVER also runs unlisted, unshown, as the baseline of the extra column")
	fs.IntVar(&o.reads, "reads", 0, "`n` measured reads per scenario and policy, after a warm-up of at least a quarter as many; fanout measures a quarter as many requests of 100 reads each (default 4000, or 1000 with -quick but in the cluster-slowdown scenarios, whose hedge storm takes 4000 to build)")
	fs.IntVar(&o.concurrency, "concurrency", 32, "`n` concurrent readers in the closed-loop scenarios (healthy, gc-pauses, stale-replica, replica-down)")
	fs.Uint64Var(&o.seed, "seed", 1, "`seed` of every random choice: the same seed gives the same clusters, keys and random draws, not the same figures: a run's reads interleave as the machine runs them, its warm-up lasts a set time, and the ideal follows the warm-up and the thresholds the run's reads ran with")
	fs.BoolVar(&o.quick, "quick", false, "a short run that still shows every effect")
	fs.BoolVar(&o.json, "json", false, "print the rows as a JSON array instead of a table")
	fs.StringVar(&o.plot, "plot", "", "also draw each scenario's tail latency against its extra load to `file` (.svg or .png)")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `file`, for go tool pprof")
	fs.StringVar(&o.trace, "trace", "", "write an execution trace of the run to `file`, for go tool trace")
	return fs
}

// usage is the -h text: what readsim does and every flag, with its
// description and default.
func usage() string {
	var b strings.Builder
	b.WriteString("usage: readsim [flags]\n\n" +
		"readsim drives readpath's coordinator over fake clusters under several scenarios and\n" +
		"speculative-retry policies, and prints one row per pair beside the ideal of its model.\n\nFlags:\n")
	newFlagSet(new(options), new(flagLists)).VisitAll(func(f *flag.Flag) {
		kind, text := flag.UnquoteUsage(f)
		fmt.Fprintf(&b, "  -%s\n    \t%s", strings.TrimSpace(f.Name+" "+kind), text)
		if !strings.Contains(text, "(default") {
			fmt.Fprintf(&b, " (default %s)", defaultText(f))
		}
		b.WriteString("\n")
	})
	return b.String()
}

func defaultText(f *flag.Flag) string {
	if f.DefValue == "" {
		return "none"
	}
	return f.DefValue
}

// fill checks the parsed values and resolves the lists.
func (o *options) fill(scenarioList, policyList string) error {
	if !o.readsSet {
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
	case o.plot != "" && !slices.Contains([]string{".svg", ".png"}, strings.ToLower(filepath.Ext(o.plot))):
		return fmt.Errorf("%w: -plot %q: the file name must end in .svg or .png", errUsage, o.plot)
	}
	if err := o.checkOutputsApart(); err != nil {
		return err
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

// checkOutputsApart fails if two of -plot, -cpuprofile and -trace name
// the same file: each would write over the other's.
func (o *options) checkOutputsApart() error {
	outputs := [][2]string{{"-plot", o.plot}, {"-cpuprofile", o.cpuProfile}, {"-trace", o.trace}}
	for i, a := range outputs {
		for _, b := range outputs[i+1:] {
			if a[1] != "" && b[1] != "" && absPath(a[1]) == absPath(b[1]) {
				return fmt.Errorf("%w: %s and %s: the same file %s", errUsage, a[0], b[0], b[1])
			}
		}
	}
	return nil
}

// absPath is path made absolute and clean, or path itself when the
// working directory is unknown.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
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
		if slices.ContainsFunc(out, func(o scenario) bool { return o.name == s.name }) {
			return nil, fmt.Errorf("%s twice", s.name)
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
		if slices.ContainsFunc(out, func(j job) bool { return j.policy == p.String() }) {
			return nil, fmt.Errorf("%s twice", p)
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
