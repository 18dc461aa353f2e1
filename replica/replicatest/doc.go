// Package replicatest provides fake replicas and clusters for testing code
// built on readpath, as net/http/httptest does for HTTP: in-memory replicas
// that misbehave the way real ones do, a cluster that places keys on them,
// and TestReplica, a conformance check for any replica.Replica adapter.
//
// A Replica holds partitions in memory, answers data and digest reads with
// replica.Command.Respond (restricted to the command's query, purged at its
// read time, limited, digested at its digest version, refused past its
// tombstone failure threshold), and merges mutations with repair.Merge;
// WithMaxDigestVersion makes it a node of an older build, to test a rolling
// upgrade. How it answers is its Behavior,
// changeable while a test runs: a Latency model (Constant, Uniform,
// LogNormal, Empirical), a Slowdown factor, random pauses (PauseChance of a
// PauseLength) and scheduled pause Windows, and a Fault (Down, Unreachable,
// IgnoresContext, Panics, ErrorAfter). WithWorkers makes it an overloaded
// server: a few workers, a queue, and ErrOverloaded beyond it. Stats counts
// what it received, so a test can assert "C got exactly one data read".
// Seed a replica with an older version of a partition to make it stale.
//
// A Cluster is replicas across datacenters and racks, with keys placed on a
// token ring under a consistency.Replication (or pinned with Pin), a
// liveness view (IsAlive, SetAlive) and a cluster-wide slowdown. Its Locate
// is what a coordinator's locator calls.
//
// A flaky cluster in ten lines:
//
//	c, err := replicatest.NewCluster(replicatest.ClusterConfig{
//		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
//		Replication: consistency.Simple(3), Seed: 1,
//	})
//	if err != nil { ... }
//	c.Seed("users", p)                               // on every replica of p.Key
//	c.Replica("dc1-r1-n1").SetLatency(replicatest.LogNormal(2*time.Millisecond, 0.5))
//	c.Replica("dc1-r1-n1").AddPause(replicatest.Window{Start: 100 * time.Millisecond, End: 180 * time.Millisecond})
//	c.Replica("dc1-r2-n2").SetFault(replicatest.Down())
//	c.Replica("dc1-r3-n3").Seed("users", older)      // stale
//
// # Deterministic time
//
// A fake replica starts no goroutine and never sleeps in a loop or holds a
// mutex across a wait: a request waits in its caller's goroutine on timers
// and channels only. Inside a testing/synctest bubble those are durably
// blocking, so virtual time jumps over every delay: a 100 ms pause costs no
// wall time, and a test sees exact virtual times — a replica in an 80 ms
// pause window answers exactly at its end, a Constant(3ms) replica after
// exactly 3 ms. Create replicas, clusters and contexts inside the bubble
// that uses them (their channels and timers belong to it), and use them in
// no other. Pause windows are measured from the replica's start: its
// creation, or its cluster's.
//
// Outside a bubble timers are real, and a mostly idle Go program's fire
// late (on Linux by up to a millisecond). WithTimerCorrection makes a
// replica learn by how much and set its timers that much shorter, so that
// its latencies match its model on average; simulations want it, tests in
// bubbles do not need it.
//
// # Reproducible randomness
//
// A request's random values (its latency and its random pause) come from
// the replica's seed (WithSeed, ClusterConfig.Seed, or by default a hash of
// the replica's ID) and the request itself: its kind (data read, digest
// read or mutation), table and key, and how many requests of that kind for
// that key drew before it (those whose Behavior has a Latency or a
// PauseChance). It draws as it arrives, before its context is looked at,
// so a cancelled request draws like any other and requests for other keys
// take nothing from it. The same seed and the same requests, in the same
// order for each key, give each replica the same latencies: a sequential
// reader replays exactly in a bubble, provided that what it reads through
// sends the same requests. Concurrent readers interleave as the scheduler
// does: requests for one key arriving at the same virtual instant draw in
// the order they reach the replica, and requests that meet at one instant
// later on go on in the scheduler's order, not in their arrival's. A pause
// window makes them meet: it releases every request it held at its end, so
// they take the replica's workers (WithWorkers) in the scheduler's order,
// and of a write and a read of one key that it held and that take no time
// to serve, either may land first. To count its requests, a replica that
// draws keeps a few bytes for every key and kind it was ever asked, so a
// long simulation over ever-new keys grows by that much a key.
//
// A coordinator (package coordinator) reading through these replicas sends
// the same requests again only where no two of its goroutines act at one
// virtual instant, since the scheduler orders those. Three cases do. Answers
// that arrive together race: which completes the read and which is
// cancelled may change from run to run. Replicas of one Constant latency,
// or paused by the same Window, answer together, and so do failures at
// once (Down, Panics, ErrorAfter(0, ...)) of two replicas, whose order
// decides which failure a read's error names. A read's cancelled requests
// return at the instant it ends and update the coordinator's ranking of
// replicas then, racing the plan of a read started at that instant (call
// synctest.Wait between reads that must replay), and each other: two of
// them to one replica fold into its latency score in the scheduler's
// order, which moves the score a little. And reads in flight together, a
// ReadMany's keys included unless its Concurrency is 1, share the
// coordinator's state (its ranking of replicas by their outstanding
// requests, its threshold, its hedge budget) and update it in the order
// the scheduler runs them.
package replicatest
