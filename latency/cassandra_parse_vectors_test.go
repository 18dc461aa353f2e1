package latency_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/latency"
)

// Ported from Cassandra's
// test/unit/org/apache/cassandra/service/reads/SpeculativeRetryParseTest.java
// (SuccessfulParseTest.generateData, testParameterParse and the toString round trips).
func TestCassandraSpeculativeRetryParseVectors(t *testing.T) {
	never, always := latency.Never(), latency.Always()
	pct := func(p float64) latency.SpeculativeRetry {
		s, err := latency.Percentile(p)
		require.NoError(t, err)
		return s
	}
	ms := func(n int) latency.SpeculativeRetry {
		s, err := latency.Fixed(time.Duration(n) * time.Millisecond)
		require.NoError(t, err)
		return s
	}
	hybrid := func(f func(float64, time.Duration) (latency.SpeculativeRetry, error), p float64, n int) latency.SpeculativeRetry {
		s, err := f(p, time.Duration(n)*time.Millisecond)
		require.NoError(t, err)
		return s
	}
	for _, tt := range []struct {
		in   string
		want latency.SpeculativeRetry
	}{
		{"NONE", never}, {"None", never}, {"Never", never}, {"NEVER", never},
		{"ALWAYS", always}, {"Always", always},
		{"95PERCENTILE", pct(95)}, {"99PERCENTILE", pct(99)}, {"99.5PERCENTILE", pct(99.5)},
		{"99.9PERCENTILE", pct(99.9)}, {"99.95PERCENTILE", pct(99.95)}, {"99.99PERCENTILE", pct(99.99)},
		{"21.1percentile", pct(21.1)}, {"78.11p", pct(78.11)},
		{"1ms", ms(1)}, {"10ms", ms(10)}, {"100ms", ms(100)}, {"1000ms", ms(1000)},
		{"121.1ms", ms(121)}, {"21.7MS", ms(21)},
		{"max(99p,53ms)", hybrid(latency.Max, 99, 53)},
		{"max(53ms,99p)", hybrid(latency.Max, 99, 53)},
		{"MIN(70MS,90PERCENTILE)", hybrid(latency.Min, 90, 70)},
		{"MIN(70MS,  90PERCENTILE)", hybrid(latency.Min, 90, 70)},
	} {
		got, err := latency.ParseSpeculativeRetry(tt.in)
		require.NoError(t, err, tt.in)
		assert.True(t, got.Equal(tt.want), "%q parsed as %v, want %v", tt.in, got, tt.want)
		back, err := latency.ParseSpeculativeRetry(tt.want.String())
		require.NoError(t, err, tt.want.String())
		assert.True(t, back.Equal(tt.want), "%q round-trips as %v", tt.want.String(), back)
	}
}

// Ported from SpeculativeRetryParseTest.java, FailedParseTest.generateData.
func TestCassandraSpeculativeRetryParseRejects(t *testing.T) {
	for _, in := range []string{"", "-0.1PERCENTILE", "100.1PERCENTILE", "xPERCENTILE", "xyzms", "X"} {
		_, err := latency.ParseSpeculativeRetry(in)
		assert.ErrorIs(t, err, latency.ErrInvalidSpeculativeRetry, "%q", in)
	}
}
