package enumname_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/internal/enumname"
)

type color uint8

var (
	names      = []string{"", "red", "dark blue", "sky"}
	errUnknown = errors.New("unknown color")
)

func parse(s string) (color, error) { return enumname.Parse[color](s, names, errUnknown) }

func TestOfNamesAValueOrItsNumber(t *testing.T) {
	assert.Equal(t, "dark blue", enumname.Of(color(2), names, "color"))
	assert.Equal(t, "", enumname.Of(color(0), names, "color"))
	assert.Equal(t, "color(9)", enumname.Of(color(9), names, "color"))
}

// Names match in any ASCII letter case and no other: a Unicode fold (the
// long s to S, the Kelvin sign to k) would let a name that is not one in.
func TestParseFoldsASCIIOnly(t *testing.T) {
	for s, want := range map[string]color{"red": 1, "RED": 1, "Dark Blue": 2, "SKY": 3, "": 0} {
		got, err := parse(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	for _, s := range []string{"ſky", "\u212aky", "re", "red ", "dark_blue"} {
		_, err := parse(s)
		assert.ErrorIs(t, err, errUnknown, s)
		assert.ErrorContains(t, err, "\""+s+"\"", "the error quotes what it refused")
	}
}

func TestMarshalRefusesAValueWithoutAName(t *testing.T) {
	b, err := enumname.Marshal(color(3), names, errUnknown)
	require.NoError(t, err)
	assert.Equal(t, "sky", string(b))
	for _, v := range []color{0, 4, 255} {
		_, err := enumname.Marshal(v, names, errUnknown)
		assert.ErrorIs(t, err, errUnknown, "color %d", v)
	}
}

func TestUnmarshalLeavesTheValueOnError(t *testing.T) {
	v := color(1)
	require.NoError(t, enumname.Unmarshal(&v, []byte("SKY"), parse))
	assert.Equal(t, color(3), v)
	assert.ErrorIs(t, enumname.Unmarshal(&v, []byte("green"), parse), errUnknown)
	assert.Equal(t, color(3), v)
}
