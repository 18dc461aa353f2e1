package coordinator

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrInvalidGCGrace is wrapped by UnmarshalJSON's error for a negative
// gc_grace_seconds.
var ErrInvalidGCGrace = errors.New("coordinator: invalid gc_grace_seconds")

// tableOptionsFields is TableOptions without its JSON methods, so that
// they can encode the other fields with the struct tags.
type tableOptionsFields TableOptions

// MarshalJSON writes each option's effective value, defaults applied, so
// that a reader needs no knowledge of Go's zero-means-default rule:
// gc_grace_seconds is Cassandra's value (864000 by default, 0 for none);
// a tombstone threshold is its number (1000 and 100000 by default), or -1
// for none, as Cassandra's guardrails write a disabled threshold.
func (o TableOptions) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		tableOptionsFields
		GCGraceSeconds            int64 `json:"gc_grace_seconds"`
		TombstoneWarnThreshold    int   `json:"tombstone_warn_threshold"`
		TombstoneFailureThreshold int   `json:"tombstone_failure_threshold"`
	}{
		tableOptionsFields(o), o.gcGrace(),
		jsonThreshold(o.TombstoneWarnThreshold, defaultTombstoneWarn),
		jsonThreshold(o.TombstoneFailureThreshold, defaultTombstoneFailure),
	})
}

// jsonThreshold is a threshold's effective value, -1 for none.
func jsonThreshold(v, def int) int {
	if t := threshold(v, def); t > 0 {
		return t
	}
	return -1
}

// UnmarshalJSON reads what MarshalJSON writes. gc_grace_seconds is
// Cassandra's: 0 is no grace (GCGraceSeconds -1), and a negative value is
// an error wrapping ErrInvalidGCGrace. A tombstone threshold is read as in
// Go: 0 is the default and a negative value none. Cassandra's 0 would
// fail or warn at the first tombstone, which no table wants and Go cannot
// say, while JSON written before MarshalJSON existed used 0 for the
// default. An absent field is left as it was: in a zero TableOptions, the
// default. On error o is left unchanged. A Decoder's DisallowUnknownFields
// does not reach inside TableOptions.
//
// That older JSON wrote the default options as gc_grace_seconds 0 beside
// both thresholds 0, which MarshalJSON never writes: such a grace is read
// as the default, as it was written, since reading it as none would let
// replicas drop every tombstone and deleted data come back.
func (o *TableOptions) UnmarshalJSON(b []byte) error {
	v := *o
	aux := struct {
		*tableOptionsFields
		GCGraceSeconds            *int64 `json:"gc_grace_seconds"`
		TombstoneWarnThreshold    *int   `json:"tombstone_warn_threshold"`
		TombstoneFailureThreshold *int   `json:"tombstone_failure_threshold"`
	}{tableOptionsFields: (*tableOptionsFields)(&v)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	setIf(&v.TombstoneWarnThreshold, aux.TombstoneWarnThreshold)
	setIf(&v.TombstoneFailureThreshold, aux.TombstoneFailureThreshold)
	if g := aux.GCGraceSeconds; g != nil {
		var err error
		if v.GCGraceSeconds, err = graceFromJSON(*g); err != nil {
			return err
		}
		if *g == 0 && isZero(aux.TombstoneWarnThreshold) && isZero(aux.TombstoneFailureThreshold) {
			v.GCGraceSeconds = 0 // the older JSON's default
		}
	}
	*o = v
	return nil
}

func setIf(dst, v *int) {
	if v != nil {
		*dst = *v
	}
}

// isZero reports whether a field was written, as 0.
func isZero(v *int) bool { return v != nil && *v == 0 }

// graceFromJSON turns Cassandra's gc_grace_seconds into GCGraceSeconds.
func graceFromJSON(g int64) (int64, error) {
	switch {
	case g < 0:
		return 0, fmt.Errorf("%w %d: it is 0 (no grace) or more", ErrInvalidGCGrace, g)
	case g == 0:
		return -1, nil
	}
	return g, nil
}
