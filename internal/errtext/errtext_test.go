package errtext

import (
	"encoding/json"
	"errors"
	"testing"
)

type nilErr struct{}

func (*nilErr) Error() string { return "never" }

type panicky struct{}

func (panicky) Error() string { panic("no text") }

func TestOfAndRead(t *testing.T) {
	if Of(nil) != nil {
		t.Fatal("a nil error has text")
	}
	for _, err := range []error{errors.New(`"quoted" <x>`), (*nilErr)(nil), panicky{}} {
		p := Of(err)
		if p == nil {
			t.Fatalf("%T: no text", err)
		}
		raw, _ := json.Marshal(p)
		var back error
		if e := Read(&back, raw, "T.Err"); e != nil || back == nil || back.Error() != *p {
			t.Fatalf("%T: read back %v, %v; want %q", err, back, e, *p)
		}
	}
	back := errors.New("stale")
	if err := Read(&back, nil, "T.Err"); err != nil || back == nil {
		t.Fatalf("absent: %v, %v", back, err)
	}
	if err := Read(&back, json.RawMessage("null"), "T.Err"); err != nil || back != nil {
		t.Fatalf("null: %v, %v", back, err)
	}
	back = errors.New("stale")
	if err := Read(&back, json.RawMessage("3"), "T.Err"); err == nil || back.Error() != "stale" {
		t.Fatalf("a number: %v, %v", back, err)
	}
}
