// Package replica defines what crosses the boundary between the coordinator
// and a replica: the Replica interface an embedding storage engine
// implements, the Command, Response and Mutation it exchanges, and the data
// model of a partition.
//
// A partition is a key, an optional partition deletion, and rows ordered by
// clustering key; a row is a clustering key, an optional row deletion and
// cells ordered by column name; a cell carries a value, a write timestamp in
// microseconds and, for tombstones and expiring cells, a local deletion time.
// Keys, clustering keys and column names are strings holding arbitrary bytes,
// ordered as unsigned bytes.
//
//	p := replica.NewPartition("user:42",
//		replica.NewRow("profile",
//			replica.Live("email", "ada@example.com", 1700000000000000),
//			replica.Tombstone("phone", 1700000000000001, 1700000000),
//		),
//	)
//	if err := p.Validate(); err != nil { ... }
//	d := p.Digest() // what a replica answers to a digest-only read
//
// Reconciling versions of a partition is package repair's job; fakes for tests
// are in package replica/replicatest.
package replica
