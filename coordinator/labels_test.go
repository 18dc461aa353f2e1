package coordinator_test

import (
	"bytes"
	"context"
	"fmt"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// labelRecorder is a replica that records the profiler labels of the
// goroutine its Read runs on, as a CPU profile would attribute it.
type labelRecorder struct {
	replica.Replica
	seen chan<- string
}

func (l labelRecorder) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		return replica.Response{}, err
	}
	l.seen <- labelsOfGroupWith(buf.String(), "labelRecorder.Read")
	return l.Replica.Read(ctx, cmd)
}

// labelsOfGroupWith returns the "# labels:" line of the goroutine profile
// group whose stack holds fn, or "" if it has none.
func labelsOfGroupWith(profile, fn string) string {
	for _, group := range strings.Split(profile, "\n\n") {
		if !strings.Contains(group, fn) {
			continue
		}
		for _, line := range strings.Split(group, "\n") {
			if rest, ok := strings.CutPrefix(line, "# labels: "); ok {
				return rest
			}
		}
		return ""
	}
	return "no goroutine in " + fn
}

// Replica requests run on kept goroutines, which must not keep the
// profiler labels of the read that started them: each request runs under
// the labels of its own read's context, as a new goroutine would.
func TestReplicaRequestsRunUnderTheirReadsProfilerLabels(t *testing.T) {
	seen := make(chan string, 1)
	locate := wrapping(instantCluster(t), 3, func(r replica.Replica) replica.Replica { return labelRecorder{r, seen} })
	c, err := coordinator.New(coordinator.Config{Locator: locate, DefaultTable: policy(t, "NEVER")})
	require.NoError(t, err)
	defer c.Close()

	for i := range 20 {
		tenant := fmt.Sprint("tenant-", i%2)
		pprof.Do(context.Background(), pprof.Labels("tenant", tenant), func(ctx context.Context) {
			_, err := c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
			require.NoError(t, err)
		})
		assert.Equal(t, fmt.Sprintf(`{"tenant":%q}`, tenant), <-seen, "read %d", i)
	}
}
