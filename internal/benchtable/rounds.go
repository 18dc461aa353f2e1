package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The table gives medians; whether a target holds robustly, or flips
// between runs of the same code, shows in the rounds. Rounds prints, for
// each ratio row, the range of the ratio over the loop's rounds and how
// many rounds meet the target, the same for each row whose target is on
// its own figure ("≤ 20 ms"), and then the benchmarks whose own figures
// varied most between rounds: a wide spread there says the machine was
// not quiet, whatever the medians say.

// widest is how many benchmarks the spread list shows.
const widest = 10

// Rounds reports the per-round figures of the table's rows in readme.
// The loop appends one value per benchmark per round, so a benchmark's
// i-th value at a -cpu value is round i's.
func Rounds(readme string, rs Results) (string, error) {
	rows, err := tableRows(readme)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("ratio per round (min–max; rounds meeting the target):\n")
	type spread struct {
		name      string
		cpu       int
		lo, hi, s float64
		unit      string
	}
	var spreads []spread
	seen := map[key]bool{}
	note := func(name, unit string) {
		for _, cpu := range []int{1, 2} {
			k := key{name, cpu}
			vs := rs[k][unit]
			if seen[k] || len(vs) == 0 {
				continue
			}
			seen[k] = true
			lo, hi := slices.Min(vs), slices.Max(vs)
			spreads = append(spreads, spread{name, cpu, lo, hi, hi / lo, unit})
		}
	}
	for _, cols := range rows {
		name, ref, target := cols[0], cols[4], cols[6]
		unit := rs.unit(name)
		note(name, unit)
		if ref == "" {
			continue
		}
		refName, _, _ := strings.Cut(ref, " ")
		note(refName, unit)
		limit, marked := ratioLimit(target)
		fmt.Fprintf(&b, "%s / %s", name, refName)
		if !math.IsInf(limit, 1) {
			fmt.Fprintf(&b, " (%s)", target)
		}
		b.WriteString(":")
		for i, cpu := range []int{1, 2} {
			own, theirs := rs[key{name, cpu}][unit], rs[key{refName, cpu}][unit]
			if len(own) == 0 || len(own) != len(theirs) {
				return "", fmt.Errorf("%s and %s: %d and %d rounds at -cpu %d",
					name, refName, len(own), len(theirs), cpu)
			}
			// The i-th values are paired, so they must be of one round:
			// each failing in a different round left as many values.
			if ro, rt := rs[key{name, cpu}][roundUnit], rs[key{refName, cpu}][roundUnit]; !slices.Equal(ro, rt) {
				return "", fmt.Errorf("%s and %s ran in different rounds at -cpu %d (%v and %v, counted from 0): did a benchmark fail?",
					name, refName, cpu, ro, rt)
			}
			rounds := make([]float64, len(own))
			met := 0
			for j := range own {
				rounds[j] = shownRatio(own[j], theirs[j])
				if rounds[j] <= limit {
					met++
				}
			}
			fmt.Fprintf(&b, " cpu %d %.2f–%.2f×", cpu, slices.Min(rounds), slices.Max(rounds))
			if marked[i] {
				fmt.Fprintf(&b, " %d/%d", met, len(rounds))
			}
			if i == 0 {
				b.WriteString(",")
			}
		}
		b.WriteString("\n")
	}
	limitRounds(&b, rows, rs)
	slices.SortStableFunc(spreads, func(x, y spread) int { return cmp.Compare(y.s, x.s) })
	fmt.Fprintf(&b, "widest spreads between rounds (max / min):\n")
	for _, s := range spreads[:min(widest, len(spreads))] {
		fmt.Fprintf(&b, "%s cpu %d: %.2f× (%s – %s)\n", s.name, s.cpu, s.s, format(s.lo, s.unit), format(s.hi, s.unit))
	}
	return b.String(), nil
}

// ratioLimit parses a target on the ratio, "≤ 1.2×" maybe followed by a
// remark, and says at which -cpu values it applies: "(cpu 2)" in it limits
// it to two cores. Other targets give an infinite limit, marked nowhere.
func ratioLimit(target string) (float64, [2]bool) {
	if m := ratioTarget.FindStringSubmatch(target); m != nil {
		if v, err := strconv.ParseFloat(m[1], 64); err == nil {
			return v, [2]bool{!strings.Contains(target, "(cpu 2)"), true}
		}
	}
	return math.Inf(1), [2]bool{}
}
