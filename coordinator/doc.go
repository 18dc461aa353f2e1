// Package coordinator is the read path of a replicated store: it turns one
// read at a consistency level into requests to replicas, hedges the slow
// ones, checks that the replicas agree, repairs the ones that do not, and
// fails with the typed errors of package consistency.
//
// A read, with Cassandra's semantics:
//
//  1. The Locator names the replicas of (table, key). Those the Liveness
//     view reports down are dropped, and DC-local levels keep the local
//     datacenter only. The rest are ordered local datacenter first, then by
//     recent latency weighed by the requests outstanding on each (a
//     dynamic snitch with hysteresis). Too few left:
//     *consistency.UnavailableError, before anything is sent.
//  2. One data request goes to the closest replica, digest requests to the
//     next blockFor-1 (the closest quorum of each datacenter for
//     EACH_QUORUM). Under ALWAYS one more goes out at once, and two of the
//     requests ask for data (as Cassandra's AlwaysSpeculatingReadExecutor).
//  3. When blockFor answers including the data have not arrived by the
//     table's speculative-retry threshold, the read hedges once to the
//     closest replica not yet asked, or, in that replica's datacenter, the
//     closest on a rack with no request outstanding (a slow replica's
//     rack-mates often share its cause). Hedges draw on a budget (10 % of reads by default)
//     and stop while the coordinator is overloaded.
//  4. The digests in hand are compared. On a mismatch every replica that
//     answered a digest, or has not answered yet, is asked for its data (unless the
//     versions in hand already meet the level), the versions are merged by timestamp
//     (package repair) and each stale replica is sent exactly what it
//     lacks: BLOCKING waits until blockFor replicas hold the result, ASYNC
//     queues the writes, NONE sends nothing.
//
// Each phase — the first round, the reconcile reads after a mismatch, the
// BLOCKING repair's writes — is a round of one machine: wait for k
// successful answers (per datacenter at EACH_QUORUM) and take at most one
// speculative action when the round's threshold passes, or at once when
// failures leave no other way. The reconcile round's action is a data
// request to the closest replica not contacted at all (by the same rack
// preference); the repair round's is the merge of the unacknowledged
// repairs, written to every live replica whose data the read did not merge
// (TableOptions.AdditionalWritePolicy). Every action draws on the table's
// budget and Config.Budget, but one standing in for requests refused for
// their replicas' backlog (see BacklogError), a request for each, which is
// not sent, the read failing at once, when the replicas left cannot make
// up what the round lacks; every action is counted and traced.
// EACH_QUORUM's first and reconcile rounds take no action but that
// stand-in, sent to the datacenters the refusals left short. An action
// due while a request of its round has not yet been started by the
// coordinator's own goroutines waits one more threshold:
// that delay is the coordinator's, and the action would wait behind it.
// Reads at SERIAL and LOCAL_SERIAL are refused: they need Paxos.
//
// A table's threshold follows its own latency (package latency): each
// read's first round is recorded, a hedged one at the threshold plus the
// hedge's time, so that hedging never drags the threshold down.
//
// Minimal use, over fake replicas from package replica/replicatest:
//
//	cluster, _ := replicatest.NewCluster(replicatest.ClusterConfig{...})
//	c, err := coordinator.New(coordinator.Config{Locator: cluster, Liveness: cluster})
//	if err != nil { ... }
//	defer c.Close()
//	res, err := c.Read(ctx, coordinator.Request{Table: "users", Key: "42", Level: consistency.Quorum})
//
// A Coordinator is safe for concurrent use. It runs each replica request
// on a worker goroutine that it keeps, idle, for the next request, because
// a new goroutine must grow its stack before a replica call fits; Close
// stops the idle workers, and a busy one ends with its replica call:
// losers are cancelled through their context. Its other background
// goroutines (the ASYNC repair workers) start with the first ASYNC repair
// and stop in Close. A request's context carries the read's deadline, the
// caller's or the read timeout, whichever is first, and reports
// context.DeadlineExceeded once it passes; a context derived from it
// reports context.Canceled then, and a context.Cause in which errors.Is
// finds DeadlineExceeded (the coordinator takes either for a timeout).
package coordinator
