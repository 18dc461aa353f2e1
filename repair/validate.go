package repair

import (
	"fmt"

	"github.com/readpath/readpath/replica"
)

// validateChunk is how many rows of a version a merge validates at a time,
// just ahead of merging them: few enough that they are still in cache when
// merged, so that a merge reads each version from memory once, not once to
// validate it and once to merge it (at 10,000 rows the second walk cost
// more than the rest of the merge grew).
const validateChunk = 64

// checkHeads checks what a merge needs before its first row: some
// versions, one key, and each version's partition deletion, static row and
// range tombstones valid. On failure it returns checkVersions' error, so
// that every refusal names the first fault in version order.
func checkHeads(versions []replica.Partition) error {
	if len(versions) == 0 {
		return checkVersions(versions)
	}
	for i := range versions {
		v := &versions[i]
		head := replica.Partition{Key: v.Key, Deletion: v.Deletion, Static: v.Static, RangeTombstones: v.RangeTombstones}
		if v.Key != versions[0].Key || head.Validate() != nil {
			return checkVersions(versions)
		}
	}
	return nil
}

// checkVersions returns the error Merge reports for versions, nil if they
// are valid: the first version, in order, of a different key or failing
// Validate.
func checkVersions(versions []replica.Partition) error {
	if len(versions) == 0 {
		return &VersionsError{Index: -1, Reason: "no versions to merge"}
	}
	for i := range versions {
		v := &versions[i]
		if v.Key != versions[0].Key {
			return &VersionsError{Index: i, Reason: fmt.Sprintf("key %q differs from version 0's key %q", v.Key, versions[0].Key)}
		}
		if err := v.Validate(); err != nil {
			return &VersionsError{Index: i, Reason: "fails validation", Err: err}
		}
	}
	return nil
}

// validateAhead validates the next chunk of version i's rows, from
// m.valid[i], and the order of its first against the row before it. It
// reports whether they are valid.
func (m *merger) validateAhead(i int) bool {
	v := &m.versions[i]
	from := m.valid[i]
	to := min(from+validateChunk, len(v.Rows))
	chunk := replica.Partition{Key: v.Key, Rows: v.Rows[max(from-1, 0):to]}
	if chunk.Validate() != nil {
		return false
	}
	m.valid[i] = to
	return true
}
