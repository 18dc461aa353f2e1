package replica

// PrefixEnd returns the end bound just after every clustering key that
// begins with prefix: EndBefore the least key greater than all of them, or
// Top when none is (a prefix empty or of 0xff bytes only).
//
// A clustering key is one byte string, so a composite clustering (c1, c2,
// …) is an encoding of its components, ordered as CQL orders them, in
// which no component's encoding is a proper prefix of another's. With p
// the encoding of (x, y), CQL's relations on a prefix of the clustering
// are then: (c1, c2) >= (x, y) is StartAt(p); (c1, c2) > (x, y) is
// PrefixEnd(p).AsStart(), which is Top, where no slice may start, when p
// is 0xff bytes only (a largest value, in a fixed-width encoding): no key
// is greater, and the relation selects no row; (c1, c2) < (x, y) is
// EndBefore(p); (c1, c2) <= (x, y) is PrefixEnd(p); and c1 = x AND c2 = y
// is PrefixSlice(p).
func PrefixEnd(prefix string) Bound {
	i := len(prefix)
	for i > 0 && prefix[i-1] == 0xff {
		i--
	}
	if i == 0 {
		return Top()
	}
	return EndBefore(prefix[:i-1] + string([]byte{prefix[i-1] + 1}))
}

// PrefixSlice returns the slice of the clustering keys that begin with
// prefix (see PrefixEnd): CQL's c1 = x over a composite clustering, with
// prefix the encoding of x.
func PrefixSlice(prefix string) Slice {
	return Slice{Start: StartAt(prefix).AsStart(), End: PrefixEnd(prefix)}
}
