package ring_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/readpath/readpath/ring"
)

// The benchmarks' references compute what the tests' oracles do: the hash
// read a word at a time, as the literal transcription reads it byte by
// byte, and the placement found by binary search, as by a scan.
func TestLeMurmur3TokenAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 16; n <= 64; n += 16 {
		for range 1000 {
			k := make([]byte, n)
			for i := range k {
				k[i] = byte(r.Uint32())
			}
			if a, b := leMurmur3Token(k), refMurmur3Token(k); a != b {
				t.Fatalf("%x: %d != %d", k, a, b)
			}
		}
	}
}

// See TestLeMurmur3TokenAgrees.
func TestLocateSearchedAgrees(t *testing.T) {
	r, err := ring.New(randomNodes(7, 12, 256, 1, 3))
	if err != nil {
		t.Fatal(err)
	}
	ref := newRefLocate(r, 3)
	for i := range 5000 {
		k := fmt.Sprintf("user:%010d", i)
		if a, b := ref.locateSearched(k), ref.locate(k); !slices.Equal(a, b) {
			t.Fatalf("%s: %v != %v", k, a, b)
		}
	}
}
