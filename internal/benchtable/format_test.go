package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A time that rounds up to 1000 of its unit is shown in the next one.
func TestFormatChoosesTheUnitOfTheRoundedFigure(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{999.94, "999.9 ns"},
		{999.96, "1.00 µs"},
		{999_994, "999.99 µs"},
		{999_996, "1.00 ms"},
		{1_234_567_890, "1234.57 ms"}, // no unit above ms
	} {
		assert.Equal(t, c.want, format(c.v, "ns/op"), "%v ns", c.v)
	}
}
