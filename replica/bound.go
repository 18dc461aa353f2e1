package replica

import (
	"strconv"
	"strings"
)

// Bound is one end of a range of clustering keys, as Cassandra's
// ClusteringBound: a start or an end, inclusive or exclusive of its
// clustering key, or open (Bottom, Top). The zero Bound is Bottom.
//
// A bound stands for a position between clustering keys: StartAt(k) and
// EndBefore(k) for the position just before k, StartAfter(k) and EndAt(k)
// for the one just after it. Clustering keys are compared as unsigned bytes,
// so nothing lies between k and k+"\x00": the position after k is the one
// before k+"\x00". Compare, AsStart and AsEnd work on positions, so the
// different bounds of one position compare equal and canonicalise alike.
//
// A Bound is a plain value, safe for concurrent use.
type Bound struct {
	Clustering string
	Kind       BoundKind
}

// BoundKind says which end of a range a Bound is and whether it includes its
// clustering key. It is a plain value, safe for concurrent use.
type BoundKind uint8

// The kinds of bounds.
const (
	// BoundBottom starts a range before every clustering key.
	BoundBottom BoundKind = iota
	// BoundInclusiveStart starts a range at its clustering key, included.
	BoundInclusiveStart
	// BoundExclusiveStart starts a range just after its clustering key.
	BoundExclusiveStart
	// BoundInclusiveEnd ends a range at its clustering key, included.
	BoundInclusiveEnd
	// BoundExclusiveEnd ends a range just before its clustering key.
	BoundExclusiveEnd
	// BoundTop ends a range after every clustering key.
	BoundTop
)

// Bottom returns the open start: a range from the first clustering key.
func Bottom() Bound { return Bound{} }

// Top returns the open end: a range up to the last clustering key.
func Top() Bound { return Bound{Kind: BoundTop} }

// StartAt returns the inclusive start at clustering: CQL's ck >= clustering.
func StartAt(clustering string) Bound {
	return Bound{Clustering: clustering, Kind: BoundInclusiveStart}
}

// StartAfter returns the exclusive start at clustering: ck > clustering.
func StartAfter(clustering string) Bound {
	return Bound{Clustering: clustering, Kind: BoundExclusiveStart}
}

// EndAt returns the inclusive end at clustering: ck <= clustering.
func EndAt(clustering string) Bound {
	return Bound{Clustering: clustering, Kind: BoundInclusiveEnd}
}

// EndBefore returns the exclusive end at clustering: ck < clustering.
func EndBefore(clustering string) Bound {
	return Bound{Clustering: clustering, Kind: BoundExclusiveEnd}
}

// IsStart reports whether b can start a range: Bottom or a start.
func (b Bound) IsStart() bool { return b.Kind <= BoundExclusiveStart }

// IsEnd reports whether b can end a range: an end or Top.
func (b Bound) IsEnd() bool { return b.Kind >= BoundInclusiveEnd && b.Kind <= BoundTop }

// Compare orders b and o by the positions they stand for: -1 if b's comes
// first, 0 if they are the same position, +1 otherwise.
func (b Bound) Compare(o Bound) int { return b.position().compare(o.position()) }

// AsStart returns the start bound at b's position, in canonical form:
// Bottom for the position before the empty key, StartAfter(k) for the one
// after k (or before k+"\x00"), StartAt(k) for the one before any other k.
// Top stays Top.
func (b Bound) AsStart() Bound {
	p := b.position()
	switch {
	case p.top:
		return Top()
	case p.after:
		return StartAfter(p.key)
	case p.key == "":
		return Bottom()
	case p.key[len(p.key)-1] == 0:
		return StartAfter(p.key[:len(p.key)-1])
	}
	return StartAt(p.key)
}

// AsEnd returns the end bound at b's position, in canonical form: EndAt(k)
// for the position after k (or before k+"\x00"), EndBefore(k) for the one
// before any other k. Top stays Top, and the position before the empty key,
// where no range can end, is Bottom.
func (b Bound) AsEnd() Bound {
	p := b.position()
	switch {
	case p.top:
		return Top()
	case p.after:
		return EndAt(p.key)
	case p.key == "":
		return Bottom()
	case p.key[len(p.key)-1] == 0:
		return EndAt(p.key[:len(p.key)-1])
	}
	return EndBefore(p.key)
}

// String returns the bound as it opens or closes a range: ["a" or ("a" for
// a start, "a"] or "a") for an end, (min and max) for Bottom and Top.
func (b Bound) String() string {
	q := strconv.Quote(b.Clustering)
	switch b.Kind {
	case BoundBottom:
		return "(min"
	case BoundInclusiveStart:
		return "[" + q
	case BoundExclusiveStart:
		return "(" + q
	case BoundInclusiveEnd:
		return q + "]"
	case BoundExclusiveEnd:
		return q + ")"
	case BoundTop:
		return "max)"
	}
	return b.Kind.String() + q
}

// position is a point between clustering keys: just before key, just after
// it, or after every key (top).
type position struct {
	key   string
	after bool
	top   bool
}

func (b Bound) position() position {
	switch b.Kind {
	case BoundBottom:
		return position{}
	case BoundExclusiveStart, BoundInclusiveEnd:
		return position{key: b.Clustering, after: true}
	case BoundTop:
		return position{top: true}
	}
	return position{key: b.Clustering}
}

// before returns the position just before clustering, where a row at
// clustering begins.
func before(clustering string) position { return position{key: clustering} }

// compare orders positions. The position after k is the one before
// k+"\x00", so it compares k with a zero byte appended.
func (p position) compare(q position) int {
	if p.top || q.top {
		return compareBools(p.top, q.top)
	}
	n := min(len(p.key), len(q.key))
	if c := strings.Compare(p.key[:n], q.key[:n]); c != 0 {
		return c
	}
	switch {
	case len(p.key) == len(q.key):
		return compareBools(p.after, q.after)
	case len(p.key) < len(q.key):
		return shorterFirst(q.key[n:], p.after, q.after)
	}
	return -shorterFirst(p.key[n:], q.after, p.after)
}

// shorterFirst compares two keys, one a proper prefix of the other, each
// followed by a zero byte if its flag says so: -1 or 0, as the shorter one
// (with its zero byte) is a proper prefix of the longer or equal to it. rest
// is what the longer key holds beyond the shorter.
func shorterFirst(rest string, shortZero, longZero bool) int {
	if shortZero && rest[0] == 0 && len(rest) == 1 && !longZero {
		return 0
	}
	return -1
}

func compareBools(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
