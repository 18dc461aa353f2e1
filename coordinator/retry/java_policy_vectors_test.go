package retry_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// javaVector is one assertion of the Java driver 4's RetryPolicyTestBase:
// the failure's level, counts and retry count, and the decision with the
// level Java's hasConsistency names (the failed level when it names none).
type javaVector struct {
	err  error
	n    int
	want retry.Decision
	to   c.Level // 0 (ANY): the failed attempt's level
}

func checkJavaVectors(t *testing.T, p retry.Policy, vectors []javaVector) {
	t.Helper()
	for _, v := range vectors {
		l := failedLevel(v.err)
		got := ask(p, stmt(l, retry.Idempotent), v.err, v.n)
		assert.Equal(t, v.want, got.Decision, "%v, retry %d", v.err, v.n)
		if v.want == retry.RetrySame || v.want == retry.RetryNext {
			to := v.to
			if to == c.Any {
				to = l
			}
			assert.Equal(t, to, got.Level, "%v, retry %d", v.err, v.n)
		}
	}
}

func failedLevel(err error) c.Level {
	switch e := err.(type) {
	case *c.ReadTimeoutError:
		return e.Level
	case *c.WriteTimeoutError:
		return e.Level
	case *c.UnavailableError:
		return e.Level
	}
	return c.Quorum
}

const (
	rethrowD = retry.Rethrow
	sameD    = retry.RetrySame
	nextD    = retry.RetryNext
	ignoreD  = retry.Ignore
)

// Ported from apache/cassandra-java-driver
// core/src/test/java/com/datastax/oss/driver/api/core/retry/DefaultRetryPolicyTest.java
// (timeouts and unavailable; its aborted-request and error-response vectors
// are driverErrorCases in policies_test.go).
func TestJavaDefaultRetryPolicyVectors(t *testing.T) {
	checkJavaVectors(t, retry.DefaultPolicy{}, []javaVector{
		{readTimeout(c.Quorum, 2, 2, false), 0, sameD, 0},
		{readTimeout(c.Quorum, 2, 2, false), 1, rethrowD, 0},
		{readTimeout(c.Quorum, 2, 2, true), 0, rethrowD, 0},
		{readTimeout(c.Quorum, 2, 1, true), 0, rethrowD, 0},
		{readTimeout(c.Quorum, 2, 1, false), 0, rethrowD, 0},
		{writeTimeout(c.Quorum, c.WriteBatchLog, 2, 0), 0, sameD, 0},
		{writeTimeout(c.Quorum, c.WriteBatchLog, 2, 0), 1, rethrowD, 0},
		{writeTimeout(c.Quorum, c.WriteSimple, 2, 0), 0, rethrowD, 0},
		{unavailable(c.Quorum, 2, 1), 0, nextD, 0},
		{unavailable(c.Quorum, 2, 1), 1, rethrowD, 0},
	})
}

// Ported from apache/cassandra-java-driver
// core/src/test/java/com/datastax/oss/driver/api/core/retry/ConsistencyDowngradingRetryPolicyTest.java
// (timeouts and unavailable; its aborted-request and error-response vectors
// are driverErrorCases in policies_test.go).
func TestJavaConsistencyDowngradingRetryPolicyVectors(t *testing.T) {
	p := retry.DowngradingPolicy{}
	t.Run("read timeouts", func(t *testing.T) {
		checkJavaVectors(t, p, []javaVector{
			{readTimeout(c.Quorum, 2, 2, false), 1, rethrowD, 0},
			{readTimeout(c.Serial, 2, 2, false), 0, rethrowD, 0},
			{readTimeout(c.Quorum, 4, 3, true), 0, sameD, c.Three},
			{readTimeout(c.Quorum, 4, 3, false), 0, sameD, c.Three},
			{readTimeout(c.Quorum, 3, 2, true), 0, sameD, c.Two},
			{readTimeout(c.Quorum, 3, 2, false), 0, sameD, c.Two},
			{readTimeout(c.Quorum, 2, 1, true), 0, sameD, c.One},
			{readTimeout(c.Quorum, 2, 1, false), 0, sameD, c.One},
			{readTimeout(c.EachQuorum, 2, 0, true), 0, sameD, c.One},
			{readTimeout(c.EachQuorum, 2, 0, false), 0, sameD, c.One},
			{readTimeout(c.Quorum, 2, 0, true), 0, rethrowD, 0},
			{readTimeout(c.Quorum, 2, 0, false), 0, rethrowD, 0},
			{readTimeout(c.Quorum, 2, 2, false), 0, sameD, 0},
			{readTimeout(c.Quorum, 2, 2, true), 0, rethrowD, 0},
		})
	})
	t.Run("write timeouts", func(t *testing.T) {
		checkJavaVectors(t, p, []javaVector{
			{writeTimeout(c.Quorum, c.WriteBatchLog, 2, 0), 1, rethrowD, 0},
			{writeTimeout(c.Quorum, c.WriteSimple, 2, 1), 0, ignoreD, 0},
			{writeTimeout(c.Quorum, c.WriteSimple, 2, 0), 0, rethrowD, 0},
			{writeTimeout(c.Quorum, c.WriteBatch, 2, 1), 0, ignoreD, 0},
			{writeTimeout(c.Quorum, c.WriteBatch, 2, 0), 0, rethrowD, 0},
			{writeTimeout(c.Quorum, c.WriteUnloggedBatch, 4, 3), 0, sameD, c.Three},
			{writeTimeout(c.Quorum, c.WriteUnloggedBatch, 3, 2), 0, sameD, c.Two},
			{writeTimeout(c.Quorum, c.WriteUnloggedBatch, 2, 1), 0, sameD, c.One},
			{writeTimeout(c.EachQuorum, c.WriteUnloggedBatch, 2, 0), 0, sameD, c.One},
			{writeTimeout(c.Quorum, c.WriteUnloggedBatch, 2, 0), 0, rethrowD, 0},
			{writeTimeout(c.Quorum, c.WriteBatchLog, 2, 1), 0, sameD, 0},
			{writeTimeout(c.Quorum, c.WriteCounter, 2, 1), 0, rethrowD, 0},
			{writeTimeout(c.Quorum, c.WriteCAS, 2, 1), 0, rethrowD, 0},
			{writeTimeout(c.Quorum, c.WriteView, 2, 1), 0, rethrowD, 0},
			{writeTimeout(c.Quorum, c.WriteCDC, 2, 1), 0, rethrowD, 0},
		})
	})
	t.Run("unavailable", func(t *testing.T) {
		checkJavaVectors(t, p, []javaVector{
			{unavailable(c.Quorum, 2, 1), 1, rethrowD, 0},
			{unavailable(c.Serial, 2, 1), 0, nextD, 0},
			{unavailable(c.Quorum, 4, 3), 0, sameD, c.Three},
			{unavailable(c.Quorum, 3, 2), 0, sameD, c.Two},
			{unavailable(c.Quorum, 2, 1), 0, sameD, c.One},
			{unavailable(c.EachQuorum, 2, 0), 0, sameD, c.One},
			{unavailable(c.Quorum, 2, 0), 0, rethrowD, 0},
		})
	})
}
