package consistency_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/nametest"
)

func TestLevelCodesAreProtocolCodes(t *testing.T) {
	codes := map[consistency.Level]uint8{
		consistency.Any: 0, consistency.One: 1, consistency.Two: 2, consistency.Three: 3,
		consistency.Quorum: 4, consistency.All: 5, consistency.LocalQuorum: 6,
		consistency.EachQuorum: 7, consistency.Serial: 8, consistency.LocalSerial: 9,
		consistency.LocalOne: 10,
	}
	for l, code := range codes {
		assert.Equal(t, code, uint8(l), l.String())
	}
	assert.Len(t, consistency.Levels(), len(codes))
}

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in   string
		want consistency.Level
	}{
		{"ANY", consistency.Any}, {"one", consistency.One}, {"Two", consistency.Two},
		{"THREE", consistency.Three}, {"quorum", consistency.Quorum}, {"ALL", consistency.All},
		{"local_quorum", consistency.LocalQuorum}, {"Each_Quorum", consistency.EachQuorum},
		{"SERIAL", consistency.Serial}, {"local_serial", consistency.LocalSerial},
		{"LOCAL_ONE", consistency.LocalOne},
	}
	for _, tt := range tests {
		got, err := consistency.ParseLevel(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
		assert.Equal(t, strings.ToUpper(tt.in), got.String())
	}
}

func TestParseLevelRejectsUnknownNames(t *testing.T) {
	for _, in := range []string{"", "QUORUMS", " ONE", "LOCAL-QUORUM", "4", "QUORUM\x00"} {
		_, err := consistency.ParseLevel(in)
		require.Error(t, err, "%q", in)
		assert.ErrorIs(t, err, consistency.ErrUnknownLevel)
		assert.Contains(t, err.Error(), "\""+strings.ReplaceAll(in, "\x00", `\x00`)+"\"")
	}
}

func TestLevelStringRoundTrips(t *testing.T) {
	for _, l := range consistency.Levels() {
		got, err := consistency.ParseLevel(l.String())
		require.NoError(t, err)
		assert.Equal(t, l, got)

		text, err := l.MarshalText()
		require.NoError(t, err)
		var back consistency.Level
		require.NoError(t, back.UnmarshalText(text))
		assert.Equal(t, l, back)
	}
	assert.Equal(t, "Level(42)", consistency.Level(42).String())
	_, err := consistency.Level(42).MarshalText()
	assert.ErrorIs(t, err, consistency.ErrUnknownLevel)
}

func TestLevelsIsTheCallersToModify(t *testing.T) {
	ls := consistency.Levels()
	ls[0] = consistency.All
	assert.Equal(t, consistency.Any, consistency.Levels()[0])
}

func TestUnmarshalTextLeavesLevelOnError(t *testing.T) {
	l := consistency.Quorum
	assert.Error(t, l.UnmarshalText([]byte("MOST")))
	assert.Equal(t, consistency.Quorum, l)
}

func TestLevelPredicates(t *testing.T) {
	local := map[consistency.Level]bool{consistency.LocalOne: true, consistency.LocalQuorum: true, consistency.LocalSerial: true}
	serial := map[consistency.Level]bool{consistency.Serial: true, consistency.LocalSerial: true}
	for _, l := range consistency.Levels() {
		assert.Equal(t, local[l], l.IsDatacenterLocal(), l.String())
		assert.Equal(t, serial[l], l.IsSerial(), l.String())
	}
}

func TestValidateForRead(t *testing.T) {
	for _, l := range consistency.Levels() {
		err := l.ValidateForRead()
		if l == consistency.Any {
			assert.ErrorIs(t, err, consistency.ErrUnsupportedLevel)
			assert.Contains(t, err.Error(), "ANY")
			continue
		}
		assert.NoError(t, err, l.String())
	}
	assert.True(t, errors.Is(consistency.Level(11).ValidateForRead(), consistency.ErrUnknownLevel))
}

// FuzzParseLevel checks ParseLevel against its doc: it accepts exactly a
// level's canonical name with its ASCII letters in any case (no Unicode
// folding, such as ſ for S, and no trimming) and refuses anything else with
// an error wrapping ErrUnknownLevel.
func FuzzParseLevel(f *testing.F) {
	for _, l := range consistency.Levels() {
		f.Add(l.String())
		f.Add(strings.ToLower(l.String()))
	}
	f.Add("")
	f.Add("ＯＮＥ")
	f.Add("ſERIAL")
	f.Add("quorum_serıal")
	f.Fuzz(func(t *testing.T, s string) {
		nametest.Check(t, s, consistency.ParseLevel, consistency.ErrUnknownLevel, consistency.Levels()...)
	})
}

func TestParseLevelFoldsASCIIOnly(t *testing.T) {
	_, err := consistency.ParseLevel("ſERIAL") // U+017F folds to 's' under Unicode rules
	assert.ErrorIs(t, err, consistency.ErrUnknownLevel)
}

// ValidateForRead's godoc promises an error wrapping ErrUnsupportedLevel for
// ANY and for any undefined value; AssureSufficientLive's promises
// ErrUnknownLevel for an undefined level, which it gets from ValidateForRead.
func TestValidateForReadUndefinedLevelIsUnsupported(t *testing.T) {
	for _, l := range []consistency.Level{11, 42, 255} {
		err := l.ValidateForRead()
		assert.ErrorIs(t, err, consistency.ErrUnsupportedLevel, l.String())
		assert.ErrorIs(t, err, consistency.ErrUnknownLevel, l.String())
		assert.Contains(t, err.Error(), l.String())
	}
}
