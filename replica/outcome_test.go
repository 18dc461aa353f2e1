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

// Every system error of an unreachable node is a connection failure, each
// one alone and wrapped as net and os wrap them: IsConnectionFailure's doc
// names a refused or reset connection and an unreachable host or network;
// an aborted connection and a broken pipe are a reset by other names.
func TestIsConnectionFailureRecognisesEverySystemError(t *testing.T) {
	for _, errno := range []syscall.Errno{
		syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED,
		syscall.EHOSTUNREACH, syscall.ENETUNREACH, syscall.EPIPE,
	} {
		assert.True(t, replica.IsConnectionFailure(errno), "%v", errno)
		wrapped := &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", errno)}
		assert.True(t, replica.IsConnectionFailure(wrapped), "%v", wrapped)
	}
	assert.False(t, replica.IsConnectionFailure(syscall.ETIMEDOUT), "a timeout is not one")
}
