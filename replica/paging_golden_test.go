package replica_test

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// pointIN is an IN of n clustering values, "c0000" … : n one-row slices.
func pointIN(n int) []replica.Slice {
	sl := make([]replica.Slice, n)
	for i := range sl {
		c := fmt.Sprintf("c%04d", i)
		sl[i] = replica.Slice{Start: replica.StartAt(c), End: replica.EndAt(c)}
	}
	return sl
}

// goldenStates are paging states as the code of commit 060032e encoded
// them (hex of MarshalBinary), before the fingerprint was streamed into
// its hasher: states handed out then must resume the same reads now, so
// each must stay byte for byte what it was.
var goldenStates = []struct {
	name      string
	table     string
	key       string
	q         replica.Query
	columns   []string
	last      string
	remaining int
	want      string
}{
	{"every row", "t", "k", replica.Query{}, nil, "c", 0, "010163e795c01b3be1196d74859aeb"},
	{"every row as one slice", "t", "k", replica.Query{Slices: []replica.Slice{replica.AllRows()}}, nil, "c", 0, "010163e795c01b3be1196d74859aeb"},
	{"no slice", "t", "k", replica.Query{Slices: []replica.Slice{}}, nil, "", 0, "0100d9edb836d078c5b4d76f3b59"},
	{"a slice", "events", "user:42", replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("2024-01-01"), End: replica.EndBefore("2024-02-01")}}}, nil, "2024-01-15", 0, "010a323032342d30312d313582f33253559752691a26b7b5"},
	{"exclusive start, inclusive end", "t", "k", replica.Query{Slices: []replica.Slice{{Start: replica.StartAfter("b"), End: replica.EndAt("x")}}}, nil, "c", 0, "010163565ab3e4865ae4b4584c34b5"},
	{"prefix bounds", "t", "k", replica.Query{Slices: []replica.Slice{replica.PrefixSlice("ab"), replica.PrefixSlice("b\xff\xff"), {Start: replica.PrefixEnd("c").AsStart(), End: replica.Top()}}}, nil, "ab1", 0, "010361623120dac14666c4a74bcd21b1e9"},
	{"reversed, limit", "t", "k", replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("b"), End: replica.EndBefore("x")}}, Reversed: true, Limit: 50}, nil, "m", 0, "01016ddeca12330be11535299d9230"},
	{"limit past a byte", "t", "k", replica.Query{Limit: 100000}, nil, "c", 0, "010163d942412cac2190989062229c"},
	{"columns", "t", "k", replica.Query{Limit: 2}, []string{"w", "v", "w"}, "c", 0, "0101631af17f908c3c04bd21487633"},
	{"no column", "t", "k", replica.Query{Limit: 2}, []string{}, "c", 0, "010163f34b619eff388ca8751b0c81"},
	{"many columns", "t", "k", replica.Query{}, strings.Split("q,w,e,r,t,y,u,i,o,p,a,s,d,f,g,h,j,k,l,z,x,c,v,b,n,m", ","), "c", 0, "010163503e09c32405f04b453705ec"},
	{"rows remaining", "t", "k", replica.Query{Limit: 10}, []string{"v"}, "c", 7, "0201630799aeb6879ae4a1325bd24e27"},
	{"empty names", "", "", replica.Query{}, nil, "", 0, "0100fc6951321f23fe3f9b73fa59"},
	{"binary keys", "t\x00", "\xff\x00k", replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("\x00"), End: replica.EndAt("\xff\xff")}}}, []string{"\x00"}, "\x01", 0, "0101013e1ca7ac4a9a8c28aeec41f5"},
	{"a long clustering key", "t", "k", replica.Query{Slices: []replica.Slice{{Start: replica.StartAt(strings.Repeat("a", 3000)), End: replica.Top()}}}, nil, "b", 0, "0101626dcb38d7123f2e2a744b5d59"},
	{"IN of 3", "t", "k", replica.Query{Slices: pointIN(3), Limit: 100}, nil, "c0001", 0, "01056330303031c29e8a7a2a17c433f78b6433"},
	{"IN of 1000", "t", "k", replica.Query{Slices: pointIN(1000)}, nil, "c0099", 100, "0205633030393964dbe38370ed612bc7cc6cffb3"},
	{"IN of 1000, reversed", "t", "k", replica.Query{Slices: pointIN(1000), Reversed: true, Limit: 400}, []string{"a", "b"}, "c0900", 0, "01056330393030c95036296b4ec73b8cde9a3c"},
}

func TestPagingStatesEncodeAsBefore(t *testing.T) {
	for _, g := range goldenStates {
		s := replica.NewPagingState(g.table, g.key, g.q, g.columns, g.last).WithRemaining(g.remaining)
		b, err := s.MarshalBinary()
		require.NoError(t, err)
		assert.Equal(t, g.want, hex.EncodeToString(b), g.name)
		var back replica.PagingState
		require.NoError(t, back.UnmarshalBinary(b))
		_, err = back.Resume(g.table, g.key, g.q, g.columns)
		assert.NoError(t, err, g.name)
	}
}
