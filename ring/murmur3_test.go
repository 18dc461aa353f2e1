package ring_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/readpath/readpath/ring"
)

// Vectors of Cassandra's signed-tail Murmur3, from apache/cassandra-gocql-driver
// internal/murmur/murmur_test.go, TestMurmur3H1ForCassandra. The bytes
// 0xc8..0xd7 in the tail are where Cassandra differs from the reference C++.
var gocqlCassandraVectors = map[string]int64{
	"prefix\x00":                                                           -5156414768376541762,
	"prefix\x00\x01":                                                       3700033067394128583,
	"prefix\x00\x01\x02":                                                   -3973852022020331202,
	"prefix\x00\x01\x02\x03":                                               3038655072509758878,
	"prefix\x00\x01\x02\x03\x04":                                           -5681686890369564299,
	"prefix\x00\x01\x02\x03\x04\x05":                                       8960422816272944721,
	"prefix\x00\x01\x02\x03\x04\x05\x06":                                   -1104872167714568090,
	"prefix\x00\x01\x02\x03\x04\x05\x06\x07":                               -9199676315897541990,
	"prefix\x00\x01\x02\x03\x04\x05\x06\x07\x08":                           4847624695450664884,
	"prefix\x00\x01\x02\x03\x04\x05\x06\x07\x08\t":                         -2737291859101550625,
	"prefix\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n":                       -1154133289533387924,
	"prefix\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b":                   5781349077088505981,
	"prefix\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c":               -681021187788781932,
	"prefix\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r":             -3787130296809111096,
	"prefix\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e":         -3115393326357146996,
	"prefix\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f":     -2684252762052835206,
	"prefix\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\xc8": -278181328349571586,

	prefix2:                                                              -5319761130493488577,
	prefix2 + "\xca":                                                     -4593148434938707926,
	prefix2 + "\xca\xcb":                                                 -575713103357290760,
	prefix2 + "\xca\xcb\xcc":                                             4290743753678124926,
	prefix2 + "\xca\xcb\xcc\xcd":                                         9164754117279683406,
	prefix2 + "\xca\xcb\xcc\xcd\xce":                                     -107668053986278786,
	prefix2 + "\xca\xcb\xcc\xcd\xce\xcf":                                 64887291506465003,
	prefix2 + "\xca\xcb\xcc\xcd\xce\xcf\xd0":                             6241282934480161521,
	prefix2 + "\xca\xcb\xcc\xcd\xce\xcf\xd0\xd1":                         5150183507841894143,
	prefix2 + "\xca\xcb\xcc\xcd\xce\xcf\xd0\xd1\xd2":                     5645797256444299552,
	prefix2 + "\xca\xcb\xcc\xcd\xce\xcf\xd0\xd1\xd2\xd3":                 -908235285856554578,
	prefix2 + "\xca\xcb\xcc\xcd\xce\xcf\xd0\xd1\xd2\xd3\xd4":             -1785405279637408062,
	prefix2 + "\xca\xcb\xcc\xcd\xce\xcf\xd0\xd1\xd2\xd3\xd4\xd5":         5343233714768265848,
	prefix2 + "\xca\xcb\xcc\xcd\xce\xcf\xd0\xd1\xd2\xd3\xd4\xd5\xd6":     4936964276934412722,
	prefix2 + "\xca\xcb\xcc\xcd\xce\xcf\xd0\xd1\xd2\xd3\xd4\xd5\xd6\xd7": 2294903531026336836,

	// A composite key (uuid, int): see TestCompositeKeyToken.
	gocqlComposite: -9223371632693506265,
}

const (
	prefix2        = "prefix\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\xc8\xc9"
	gocqlComposite = "\x00\x10C'R\x9f\xb6E\xdd\x00\xb8\x83\xec9\xaeD\x8b\xb8\x00\x00\x04\x00\x06jk\x00"
)

func TestMurmur3TokenCassandraVectors(t *testing.T) {
	for key, want := range gocqlCassandraVectors {
		if got := ring.Murmur3Token([]byte(key)); got != want {
			t.Errorf("Murmur3Token(%q) = %d, want %d", key, got, want)
		}
	}
}

// Vectors from gocql's murmur_test.go, TestMurmur3H1 (gocql/gocql, 2015),
// ASCII, so the tail's sign does not matter, given as unsigned h1; and from
// datastax/python-driver tests/unit/test_metadata.py,
// TestTokens.test_murmur3_tokens, whose high-byte keys it does matter for.
func TestMurmur3TokenDriverVectors(t *testing.T) {
	for _, tc := range []struct {
		key  string
		want int64
	}{
		{"\x00", signed(0x4610abe56eff5cb5)},
		{"\x00\x01", signed(0x7cb3f5c58dab264c)},
		{"\x00\x01\x02", signed(0xb872a12fef53e6be)},
		{"\x00\x01\x02\x03", signed(0xe1c594ae0ddfaf10)},
		{"hello", signed(0xcbd8a7b341bd9b02)},
		{"hello, world", signed(0x342fac623a5ebc8e)},
		{"19 Jan 2038 at 3:14:07 AM", signed(0xb89e5988b737affc)},
		{"The quick brown fox jumps over the lazy dog.", signed(0xcd99481f9ee902c9)},
		{"123", -7468325962851647638},
		{"9223372036854775807", 7162290910810015547},
		// Bytes of the high bit set, which Cassandra's tail sign-extends.
		{strings.Repeat("\x00\xff\x10\xfa\x99", 10), 5837342703291459765},
		{strings.Repeat("\xfe", 8), -8927430733708461935},
		{strings.Repeat("\x10", 8), 1446172840243228796},
	} {
		if got := ring.Murmur3Token([]byte(tc.key)); got != tc.want {
			t.Errorf("Murmur3Token(%q) = %d, want %d", tc.key, got, tc.want)
		}
	}
}

// signed reinterprets an unsigned h1 as the token it is.
func signed(h uint64) int64 { return int64(h) }

func TestMurmur3TokenEmptyKeyIsMinimum(t *testing.T) {
	if got := ring.Murmur3Token(nil); got != math.MinInt64 {
		t.Errorf("Murmur3Token(nil) = %d, want MinInt64", got)
	}
	if got := ring.Murmur3Token([]byte{}); got != ring.MinToken {
		t.Errorf("Murmur3Token(empty) = %d, want MinToken", got)
	}
}

func TestCompositeKeyToken(t *testing.T) {
	uuid := []byte("C'R\x9f\xb6E\xdd\x00\xb8\x83\xec9\xaeD\x8b\xb8")
	key, err := ring.CompositeKey(uuid, []byte{0, 6, 'j', 'k'})
	if err != nil {
		t.Fatal(err)
	}
	if string(key) != gocqlComposite {
		t.Fatalf("CompositeKey = %q, want %q", key, gocqlComposite)
	}
	if got := ring.Murmur3Token(key); got != gocqlCassandraVectors[gocqlComposite] {
		t.Errorf("token %d, want %d", got, gocqlCassandraVectors[gocqlComposite])
	}
}

func TestCompositeKeyEncoding(t *testing.T) {
	for name, tc := range map[string]struct {
		in   [][]byte
		want []byte
	}{
		"none":       {nil, []byte{}},
		"empty part": {[][]byte{{}}, []byte{0, 0, 0}},
		"two parts":  {[][]byte{[]byte("ab"), {7}}, []byte{0, 2, 'a', 'b', 0, 0, 1, 7, 0}},
		"256 bytes":  {[][]byte{make([]byte, 256)}, append(append([]byte{1, 0}, make([]byte, 256)...), 0)},
		"max length": {[][]byte{make([]byte, ring.MaxComponent)}, append(append([]byte{0xff, 0xff}, make([]byte, ring.MaxComponent)...), 0)},
	} {
		got, err := ring.CompositeKey(tc.in...)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("%s: CompositeKey = %v, %v; want %v", name, got, err, tc.want)
		}
	}
}

func TestCompositeKeyRejectsLongComponent(t *testing.T) {
	dst := []byte("kept")
	got, err := ring.AppendCompositeKey(dst, []byte("a"), make([]byte, ring.MaxComponent+1))
	var ce *ring.ComponentError
	if !errorsAs(err, &ce) || ce.Index != 1 || ce.Length != ring.MaxComponent+1 {
		t.Fatalf("err = %v, want a *ComponentError for component 1", err)
	}
	if string(got) != "kept" {
		t.Errorf("dst changed to %q", got)
	}
}

func TestMurmur3TokenMatchesReference(t *testing.T) {
	key := make([]byte, 0, 64)
	for n := range 64 {
		for _, fill := range []byte{0x00, 0x7f, 0x80, 0xff} {
			key = key[:n]
			for i := range key {
				key[i] = fill ^ byte(i*37)
			}
			if got, want := ring.Murmur3Token(key), refMurmur3Token(key); got != want {
				t.Fatalf("Murmur3Token(%x) = %d, reference %d", key, got, want)
			}
		}
	}
}

func FuzzMurmur3Token(f *testing.F) {
	for key := range gocqlCassandraVectors {
		f.Add([]byte(key))
	}
	f.Fuzz(func(t *testing.T, key []byte) {
		if got, want := ring.Murmur3Token(key), refMurmur3Token(key); got != want {
			t.Fatalf("Murmur3Token(%x) = %d, reference %d", key, got, want)
		}
		if len(key) > 0 && ring.Murmur3Token(key) == ring.MinToken {
			t.Fatalf("non-empty key %x hashed to MinToken", key)
		}
	})
}

// FuzzCompositeKey decodes the key CompositeKey writes for two components
// back into them (each a two-byte big-endian length, its bytes and a 0,
// with nothing after the last), and checks that AppendCompositeKey appends
// the same bytes to what it is given.
func FuzzCompositeKey(f *testing.F) {
	f.Add([]byte("a"), []byte("bc"))
	f.Add([]byte{}, []byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		key, err := ring.CompositeKey(a, b)
		if err != nil {
			t.Fatal(err)
		}
		rest := key
		for i, want := range [][]byte{a, b} {
			if len(rest) < 3 {
				t.Fatalf("component %d cut short in %x", i, key)
			}
			n := int(rest[0])<<8 | int(rest[1])
			if n != len(want) || len(rest) < 3+n || !bytes.Equal(rest[2:2+n], want) || rest[2+n] != 0 {
				t.Fatalf("component %d (%x) not encoded as length, bytes, 0 in %x", i, want, key)
			}
			rest = rest[3+n:]
		}
		if len(rest) != 0 {
			t.Fatalf("%x after the last component of %x", rest, key)
		}
		got, err := ring.AppendCompositeKey([]byte("p"), a, b)
		if err != nil || string(got) != "p"+string(key) {
			t.Fatalf("AppendCompositeKey(p) = %x, %v; want p then %x", got, err, key)
		}
	})
}
