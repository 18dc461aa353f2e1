package replica

import (
	"encoding/json"

	"github.com/readpath/readpath/internal/errtext"
	"github.com/readpath/readpath/internal/typednil"
)

// outcomeFields is Outcome without its methods, for its JSON.
type outcomeFields Outcome

// MarshalJSON implements json.Marshaler, for an OutcomeReporter that logs
// or exports outcomes: Err is written as its text, or null when nil (an
// error interface would marshal as {}, the failure's reason lost), and
// Latency is nanoseconds. Replica, the adapter, is left out (it may be
// anything, and no JSON makes one again): Endpoint names it, taken from
// the adapter when Endpoint has no ID (unless the adapter is a nil pointer).
func (o Outcome) MarshalJSON() ([]byte, error) {
	if o.Endpoint.ID == "" && o.Replica != nil && !typednil.Holds(o.Replica) {
		o.Endpoint = o.Replica.Endpoint()
	}
	return json.Marshal(struct {
		outcomeFields
		Replica *struct{} `json:",omitempty"` // shadows the embedded Replica: nil, left out
		Err     *string   // shadows the embedded Err
	}{outcomeFields: outcomeFields(o), Err: errtext.Of(o.Err)})
}

// UnmarshalJSON implements json.Unmarshaler: an Err written as text reads
// back as an error whose Error() is that text (errors.Is does not match
// ErrConnectionFailed in it), null as nil. Replica is left nil.
func (o *Outcome) UnmarshalJSON(b []byte) error {
	v := struct {
		*outcomeFields
		Replica json.RawMessage // shadows the embedded Replica: ignored
		Err     json.RawMessage // shadows the embedded Err
	}{outcomeFields: (*outcomeFields)(o)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return errtext.Read(&o.Err, v.Err, "replica: Outcome.Err")
}
