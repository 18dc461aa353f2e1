package retry_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		err  error
		want retry.Cause
	}{
		{readTimeout(c.One, 1, 0, false), retry.CauseReadTimeout},
		{fmt.Errorf("read users: %w", readTimeout(c.One, 1, 0, false)), retry.CauseReadTimeout},
		{writeTimeout(c.One, c.WriteSimple, 1, 0), retry.CauseWriteTimeout},
		{unavailable(c.One, 1, 0), retry.CauseUnavailable},
		{retry.ErrConnectionClosed, retry.CauseRequestAborted},
		{fmt.Errorf("node2: %w", retry.ErrHeartbeatFailed), retry.CauseRequestAborted},
		{fmt.Errorf("node2: %w", retry.ErrNotSent), retry.CauseRequestAborted},
		{&retry.RequestAbortedError{Err: errors.New("stream reset")}, retry.CauseRequestAborted},
		{&retry.RequestAbortedError{}, retry.CauseRequestAborted},
		// First match wins: the typed timeout says more than the abort.
		{&retry.RequestAbortedError{Err: readTimeout(c.One, 1, 0, false)}, retry.CauseReadTimeout},
		{retry.ErrOverloaded, retry.CauseErrorResponse},
		{&c.ReadFailureError{}, retry.CauseErrorResponse},
		{errors.New("anything"), retry.CauseErrorResponse},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, retry.Classify(tt.err), "%v", tt.err)
	}
}

// The errors an attempt function returns are distinct sentinels, each with
// its own message (errors.go): errors.Is tells a closed connection from a
// failed heartbeat, and a failed TRUNCATE from a server error, and the text
// a log shows says which it was.
func TestAttemptErrorsAreDistinctWithTheirOwnMessages(t *testing.T) {
	sentinels := []struct {
		err  error
		text string
	}{
		{retry.ErrConnectionClosed, "retry: connection closed"},
		{retry.ErrHeartbeatFailed, "retry: heartbeat failed"},
		{retry.ErrNotSent, "retry: request not sent"},
		{retry.ErrOverloaded, "retry: coordinator overloaded"},
		{retry.ErrServerError, "retry: server error"},
		{retry.ErrTruncate, "retry: truncate error"},
		{retry.ErrTypedNil, "retry: the attempt returned a nil pointer as its error"},
	}
	for i, a := range sentinels {
		assert.EqualError(t, a.err, a.text)
		for j, b := range sentinels {
			if i != j {
				assert.NotErrorIs(t, a.err, b.err, "%q matches %q", a.text, b.text)
			}
		}
	}
}

func TestRequestAbortedError(t *testing.T) {
	err := &retry.RequestAbortedError{Err: retry.ErrHeartbeatFailed}
	assert.Equal(t, "retry: request aborted: retry: heartbeat failed", err.Error())
	assert.ErrorIs(t, err, retry.ErrHeartbeatFailed)
	assert.Equal(t, "retry: request aborted", (&retry.RequestAbortedError{}).Error())
}
