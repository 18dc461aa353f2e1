package ring_test

import (
	"errors"
	"testing"

	"github.com/readpath/readpath/ring"
)

// An error built by hand, in a fake Connect say, prints without its cause
// rather than panicking.
func TestConnectErrorPrintsWithoutACause(t *testing.T) {
	if got, want := (&ring.ConnectError{Node: "n1"}).Error(), `ring: connecting to node "n1" failed`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	cause := errors.New("refused")
	if got, want := (&ring.ConnectError{Node: "n1", Err: cause}).Error(), `ring: connecting to node "n1": refused`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
