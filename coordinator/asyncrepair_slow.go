package coordinator

import (
	"fmt"
	"time"

	"github.com/readpath/readpath/replica"
)

// A replica whose ASYNC repair writes each take most of the read timeout,
// returning just within it, is never timing out (see RepairTimingOutError),
// yet it held every worker that took one of its writes for nearly a read
// timeout, and a stream of its repairs held them all, while the repairs of
// healthy replicas waited behind them or were dropped from a full queue.
// Once a write to a replica takes half the read timeout or more, the queue
// writes to it one at a time until one takes less: it holds one worker at
// most. Writes to a replica that answers sooner are not serialized, which
// would cost a healthy replica's repairs, after an outage say, their
// concurrency; nor are they when the slow write ended a read timeout or
// more before the replica's next write began, or a write slow once, long
// ago, would drop the repairs that came during its next.

// RepairSlowError is the reason, in its RepairEvent, that an ASYNC repair
// was dropped: a repair write to its replica was running, and the last to
// end took Took, half the read timeout (Timeout) or more, so the replica
// is written one repair at a time until one takes less, or one begins a
// read timeout or more after it ended. It is not modified once made and
// is safe for concurrent reads.
type RepairSlowError struct {
	Endpoint replica.Endpoint
	Took     time.Duration
	Timeout  time.Duration
}

func (e *RepairSlowError) Error() string {
	return fmt.Sprintf("coordinator: repair to %s not sent: a repair write to it is running, and its last took %v of the %v read timeout",
		e.Endpoint.ID, e.Took, e.Timeout)
}

// slowWrite returns took, at least 1 ns, if a write that took it is slow
// for a read timeout of timeout (half of it or more), else 0.
func slowWrite(took, timeout time.Duration) time.Duration {
	if took < timeout/2 {
		return 0
	}
	return max(took, 1)
}
