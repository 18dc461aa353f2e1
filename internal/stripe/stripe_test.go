package stripe

import (
	"math/rand/v2"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// Goroutines started together get stacks a power of two apart; they should
// land on different stripes nearly always, not one time in eight.
func TestNeighbouringStacksGetDifferentStripes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for k := 11; k <= 20; k++ {
		same := 0
		for range 1000 {
			addr := uintptr(r.Uint64N(1<<47)) &^ (1<<11 - 1)
			if Of(addr) == Of(addr+1<<k) {
				same++
			}
		}
		assert.Less(t, same, 1000/N/2, "stacks %d KiB apart", 1<<k>>10)
	}
}

func TestInt64SumsItsStripes(t *testing.T) {
	var c Int64
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			for range 1000 {
				c.AddAt(i, 3)
				c.AddAt(i+1, -1)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, int64(16*1000*2), c.Load())
}

func TestStripesShareNoCacheLine(t *testing.T) {
	var c Int64
	assert.Equal(t, uintptr(N*CacheLine), unsafe.Sizeof(c))
}

// Two stacks that share a stripe are on different ones once separated,
// and a dealer that was never told keeps Of's fold.
func TestDealerSeparates(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		var d Dealer
		a := uintptr(r.Uint64N(1 << 36))
		b := a
		for d.Of(b) != d.Of(a) || b == a {
			b = uintptr(r.Uint64N(1 << 36))
		}
		assert.Equal(t, Of(a<<11), d.Of(a))
		d.Separate(a, b)
		assert.NotEqual(t, d.Of(a), d.Of(b))
		d.Separate(a, a)
		assert.NotEqual(t, d.Of(a), d.Of(b))
	}
}
