package coordinator

import (
	"encoding/json"

	"github.com/readpath/readpath/replica"
)

// resultFields is Result without its methods, for its JSON.
type resultFields Result

// MarshalJSON implements json.Marshaler: besides the exported fields it
// writes the query the read ran, as "Query", on which Visible and
// VisibleRows depend (a reversed query's order, a static-only partition
// shown or not).
func (r Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		resultFields
		Query replica.Query
	}{resultFields(r), r.query})
}

// UnmarshalJSON implements json.Unmarshaler, reading back the query too:
// decoded, Visible and VisibleRows answer as they did before. It reads
// into a zero Result, not into what r held, whose rows may be the
// coordinator's memory (see Release): the result read holds none of it,
// so Release only empties it.
func (r *Result) UnmarshalJSON(b []byte) error {
	*r = Result{}
	v := struct {
		*resultFields
		Query replica.Query
	}{resultFields: (*resultFields)(r)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	r.query = v.Query
	return nil
}
