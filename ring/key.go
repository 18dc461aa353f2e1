package ring

import "math"

// MaxComponent is the longest component a composite key can hold: its
// length is written in two bytes.
const MaxComponent = math.MaxUint16

// CompositeKey returns the serialized form Cassandra hashes for a partition
// key of several columns (CompositeType): for each component, its length as
// two big-endian bytes, its bytes, and an end-of-component byte 0. Each
// component is the column's value in its CQL binary encoding. A partition
// key of one column is not composite: hash its value as is.
//
// A component longer than MaxComponent bytes gets a *ComponentError.
func CompositeKey(components ...[]byte) ([]byte, error) {
	n := 0
	for _, c := range components {
		n += 3 + len(c)
	}
	return AppendCompositeKey(make([]byte, 0, n), components...)
}

// AppendCompositeKey appends the CompositeKey encoding of components to dst
// and returns the extended slice. On error it returns dst unchanged.
func AppendCompositeKey(dst []byte, components ...[]byte) ([]byte, error) {
	for i, c := range components {
		if len(c) > MaxComponent {
			return dst, &ComponentError{Index: i, Length: len(c)}
		}
	}
	for _, c := range components {
		dst = append(dst, byte(len(c)>>8), byte(len(c)))
		dst = append(dst, c...)
		dst = append(dst, 0)
	}
	return dst, nil
}
