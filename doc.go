// Package readpath is the coordinator read path of a Dynamo/Cassandra-style
// replicated store, as an embeddable library. The work happens in its
// packages: consistency, latency, digest, replica, replica/replicatest,
// repair, coordinator and coordinator/retry. This root package holds no code;
// its bench_test.go benchmarks every hot path against a reference.
package readpath
