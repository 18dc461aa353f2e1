package repair_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/internal/nametest"
	"github.com/readpath/readpath/repair"
)

func TestModeZeroValueIsBlocking(t *testing.T) {
	var m repair.Mode
	assert.Equal(t, repair.Blocking, m)
}

func TestParseMode(t *testing.T) {
	tests := []struct {
		in   string
		want repair.Mode
	}{
		{"BLOCKING", repair.Blocking}, {"blocking", repair.Blocking}, {"Blocking", repair.Blocking},
		{"NONE", repair.None}, {"none", repair.None}, {"nOnE", repair.None},
		{"ASYNC", repair.Async}, {"async", repair.Async}, {"Async", repair.Async},
	}
	for _, tt := range tests {
		got, err := repair.ParseMode(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
		assert.Equal(t, strings.ToUpper(tt.in), got.String())
	}
}

func TestParseModeRejectsUnknownNames(t *testing.T) {
	for _, in := range []string{"", "BLOCK", " NONE", "NONE ", "ASYNC\x00", "ſync", "NO_NE", "async!", "\u212aNONE"} {
		_, err := repair.ParseMode(in)
		require.ErrorIs(t, err, repair.ErrUnknownMode, "%q", in)
		assert.Contains(t, err.Error(), strconv.Quote(in), "the error quotes the input")
	}
}

func TestModeRoundTrips(t *testing.T) {
	for _, m := range []repair.Mode{repair.Blocking, repair.None, repair.Async} {
		assert.True(t, m.Valid())
		back, err := repair.ParseMode(m.String())
		require.NoError(t, err)
		assert.Equal(t, m, back)

		text, err := m.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, m.String(), string(text))
		var u repair.Mode
		require.NoError(t, u.UnmarshalText(text))
		assert.Equal(t, m, u)
	}
}

func TestUndefinedMode(t *testing.T) {
	m := repair.Mode(7)
	assert.False(t, m.Valid())
	assert.Equal(t, "Mode(7)", m.String())
	_, err := m.MarshalText()
	assert.ErrorIs(t, err, repair.ErrUnknownMode)
}

func TestUnmarshalTextLeavesModeOnError(t *testing.T) {
	m := repair.Async
	require.ErrorIs(t, m.UnmarshalText([]byte("SOMETIMES")), repair.ErrUnknownMode)
	assert.Equal(t, repair.Async, m)
}

// ParseMode accepts exactly a mode's name with its ASCII letters in any case
// (no Unicode folding, such as ſ for S, and no trimming), and refuses
// anything else with an error wrapping ErrUnknownMode.
func FuzzParseMode(f *testing.F) {
	for _, s := range []string{"BLOCKING", "none", "Async", "", "ſync", "aſync", "blockıng", "NONE\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		nametest.Check(t, s, repair.ParseMode, repair.ErrUnknownMode, repair.Blocking, repair.None, repair.Async)
	})
}

// The defined modes are exactly Blocking, None and Async: the first value
// past them is undefined, so Valid refuses it and String, MarshalText do
// not index past the names.
func TestTheFirstUndefinedModeIsInvalid(t *testing.T) {
	m := repair.Async + 1
	assert.False(t, m.Valid())
	assert.Equal(t, "Mode(3)", m.String())
	_, err := m.MarshalText()
	assert.ErrorIs(t, err, repair.ErrUnknownMode)
}
