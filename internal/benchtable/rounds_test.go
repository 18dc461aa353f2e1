package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundsOut is three rounds of the loop: Read against Ref, and a Par row
// whose target is on two cores only. Each round runs every benchmark at
// -cpu 1, then at -cpu 2.
var roundsOut = loopOutput([]string{"Read", "Ref", "Par", "Lock"}, [][2][]float64{
	{{3000, 1000, 900, 1000}, {4000, 2000, 400, 1000}},
	{{3300, 1500, 900, 1000}, {4000, 2000, 600, 1000}},
	{{3000, 1000, 900, 1000}, {4000, 1600, 400, 1000}},
})

// loopOutput writes the loop's output: per round, per -cpu value, each
// named benchmark's ns/op.
func loopOutput(names []string, rounds [][2][]float64) string {
	var b strings.Builder
	for _, round := range rounds {
		for cpu, values := range round {
			suffix := map[int]string{0: "", 1: "-2"}[cpu]
			for i, name := range names {
				fmt.Fprintf(&b, "Benchmark%s%s \t100\t%g ns/op\t0 allocs/op\n", name, suffix, values[i])
			}
		}
	}
	return b.String()
}

const roundsReadme = `| benchmark | cpu 1 | cpu 2 | allocs/op | reference (cpu 1 / cpu 2) | ratio (cpu 1 / cpu 2) | target |
|---|---|---|---|---|---|---|
| Read | 1 ns | 1 ns | 9 | Ref 1 ns / 1 ns | 1.00× / 1.00× | ≤ 2.5× |
| Read | 1 ns | 1 ns | 9 |  |  | 0 allocs |
| Par | 1 ns | 1 ns | 0 | Lock 1 ns / 1 ns | 1.00× / 1.00× | ≤ 0.5× in parallel (cpu 2) |
| Read | 1 ns | 1 ns | 9 | Lock 1 ns / 1 ns | 1.00× / 1.00× | what it costs |
`

func TestRoundsGivesEachRatiosRangeAndTheRoundsMeetingItsTarget(t *testing.T) {
	report, err := Rounds(roundsReadme, Parse(roundsOut))
	require.NoError(t, err)
	lines := strings.Split(report, "\n")
	assert.Equal(t, []string{
		"ratio per round (min–max; rounds meeting the target):",
		// cpu 1: 3.00, 2.20, 3.00; cpu 2: 2.00, 2.00, 2.50 (4000/1600)
		"Read / Ref (≤ 2.5×): cpu 1 2.20–3.00× 1/3, cpu 2 2.00–2.50× 3/3",
		"Par / Lock (≤ 0.5× in parallel (cpu 2)): cpu 1 0.90–0.90×, cpu 2 0.40–0.60× 2/3",
		"Read / Lock: cpu 1 3.00–3.30×, cpu 2 4.00–4.00×",
	}, lines[:4])
}

func TestRoundsListsTheWidestSpreadsFirst(t *testing.T) {
	report, err := Rounds(roundsReadme, Parse(roundsOut))
	require.NoError(t, err)
	_, spreads, ok := strings.Cut(report, "widest spreads between rounds (max / min):\n")
	require.True(t, ok, report)
	assert.Equal(t, strings.Join([]string{
		"Ref cpu 1: 1.50× (1.00 µs – 1.50 µs)",
		"Par cpu 2: 1.50× (400.0 ns – 600.0 ns)", // a tie keeps the table's order
		"Ref cpu 2: 1.25× (1.60 µs – 2.00 µs)",
		"Read cpu 1: 1.10× (3.00 µs – 3.30 µs)",
		"Read cpu 2: 1.00× (4.00 µs – 4.00 µs)",
		"Par cpu 1: 1.00× (900.0 ns – 900.0 ns)",
		"Lock cpu 1: 1.00× (1.00 µs – 1.00 µs)",
		"Lock cpu 2: 1.00× (1.00 µs – 1.00 µs)",
	}, "\n")+"\n", spreads, "each benchmark once, whatever rows it is in")
}

func TestRoundsShowsOnlyTheWidest(t *testing.T) {
	var readme strings.Builder
	readme.WriteString(header + " allocs/op | reference | ratio | target |\n|---|\n")
	var names []string
	first, second := make([]float64, widest+5), make([]float64, widest+5)
	for i := range widest + 5 {
		names = append(names, fmt.Sprintf("B%d", i))
		fmt.Fprintf(&readme, "| B%d | 1 ns | 1 ns | 0 |  |  |  |\n", i)
		first[i], second[i] = 100, float64(101+i) // B14 varies most
	}
	out := loopOutput(names, [][2][]float64{{first, first}, {second, second}})
	report, err := Rounds(readme.String(), Parse(out))
	require.NoError(t, err)
	_, spreads, _ := strings.Cut(report, "(max / min):\n")
	assert.Len(t, strings.Split(strings.TrimSuffix(spreads, "\n"), "\n"), widest)
	assert.True(t, strings.HasPrefix(spreads, "B14 cpu 1: 1.15×"), spreads)
}

func TestRoundsNamesRoundsThatDoNotPair(t *testing.T) {
	out := roundsOut + "BenchmarkRef-2 	100	1600 ns/op	4 allocs/op\n"
	_, err := Rounds(roundsReadme, Parse(out))
	assert.ErrorContains(t, err, "Read and Ref: 3 and 4 rounds at -cpu 2")

	_, err = Rounds("# no table\n", Parse(roundsOut))
	assert.ErrorContains(t, err, "no table")
}

func TestRoundsCountsTheRoundsWithinATargetOnTheFigureItself(t *testing.T) {
	readme := header + ` allocs/op | reference | ratio | target |
|---|---|---|---|---|---|---|
| Read | 1 ns | 1 ns | 9 |  |  | ≤ 3.1 µs |
| Ref | 1 ns | 1 ns | 9 | Lock 1 ns / 1 ns | 1.00× / 1.00× | ≤ 1.5 µs |
| Read | 1 ns | 1 ns | 9 | Ref 1 ns / 1 ns | 1.00× / 1.00× | ≤ 2.5× |
| Par | 1 ns | 1 ns | 0 |  |  | 0 allocs |
`
	report, err := Rounds(readme, Parse(roundsOut))
	require.NoError(t, err)
	_, figures, ok := strings.Cut(report, "figure per round (min–max; rounds meeting the target):\n")
	require.True(t, ok, report)
	figures, _, _ = strings.Cut(figures, "widest spreads")
	assert.Equal(t, strings.Join([]string{
		// Read: 3000, 3300, 3000 ns at cpu 1; 4000 at cpu 2, over 3.1 µs in every round
		"Read (≤ 3.1 µs): cpu 1 3.00 µs – 3.30 µs 2/3, cpu 2 4.00 µs – 4.00 µs 0/3",
		// Ref has a reference and a target on its own figure: 1000, 1500, 1000; 2000, 2000, 1600
		"Ref (≤ 1.5 µs): cpu 1 1.00 µs – 1.50 µs 3/3, cpu 2 1.60 µs – 2.00 µs 0/3",
	}, "\n")+"\n", figures, "each benchmark once; targets on ratios and allocations are not figures")
}

func TestAbsoluteLimitReadsTheTargetsUnit(t *testing.T) {
	for target, want := range map[string]float64{"≤ 20 ms": 20e6, "≤ 24 KiB": 24 * 1024, "≤ 8 ns": 8, "≤ 1.5 µs": 1500} {
		got, ok := absoluteLimit(target)
		assert.True(t, ok, target)
		assert.InDelta(t, want, got, 1e-9, target)
	}
	for _, target := range []string{"≤ 1.2×", "0 allocs", "≤ 20 ms (flat)", "≤ 3 s", ""} {
		_, ok := absoluteLimit(target)
		assert.False(t, ok, target)
	}
}
