package replica_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

func TestIsConnectionFailure(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{replica.ErrConnectionFailed, true},
		{fmt.Errorf("adapter: %w", replica.ErrConnectionFailed), true},
		{refused, true},
		{fmt.Errorf("rpc: %w", syscall.ECONNRESET), true},
		{syscall.EHOSTUNREACH, true},
		{context.DeadlineExceeded, false},
		{context.Canceled, false},
		{replica.ErrOverloaded, false}, // the node is up, and busy
		{errors.New("replica: disk full"), false},
	} {
		assert.Equal(t, c.want, replica.IsConnectionFailure(c.err), "%v", c.err)
	}
}
