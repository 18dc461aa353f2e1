// Package readpath is the coordinator read path of a Dynamo/Cassandra-style
// replicated store, as an embeddable library. The work happens in its
// packages: consistency, latency, digest, replica, replica/replicatest,
// repair, coordinator, coordinator/retry and ring. This root package holds no
// code; its bench*_test.go files benchmark every hot path, most against a
// reference (ring's own are in package ring).
package readpath
