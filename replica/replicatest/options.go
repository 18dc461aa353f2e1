package replicatest

import (
	"hash/fnv"
	"time"

	"github.com/readpath/readpath/digest"
)

// Option configures a replica made by NewReplica or New. Options are
// immutable and may be shared between goroutines: ClusterConfig.Options
// gives the same ones to every replica.
type Option func(*options)

type options struct {
	seed       uint64
	behavior   Behavior
	workers    int
	queueLimit int
	start      time.Time
	cluster    *factor // the cluster-wide slowdown, nil outside a cluster

	timerCorrection bool
	maxDigest       byte
}

// WithSeed seeds the replica's random draws (see the package doc). Without
// it the seed is a hash of the endpoint's ID, so a run is reproducible
// either way. The seed alone decides: replicas given the same one draw the
// same latencies and pauses for the same requests, so digest reads of one
// key tie and pause together; give each replica you build its own. Among a
// ClusterConfig's Options it stands for the cluster's Seed in the replicas'
// draws, each replica still deriving a seed of its own from it; the ring
// keeps the cluster's Seed.
func WithSeed(seed uint64) Option {
	return func(o *options) { o.seed = seed }
}

// WithBehavior sets the replica's initial Behavior; see SetBehavior. It
// copies b at once, so that changing b afterwards changes no option, and
// each replica built with the option gets a copy of its own.
func WithBehavior(b Behavior) Option {
	b = b.clone()
	return func(o *options) { o.behavior = b.clone() }
}

// WithWorkers models a replica that serves at most workers requests at a
// time: the others queue for a worker, so latency grows with queued work,
// and a request arriving when queueLimit requests are already queued fails
// at once with ErrOverloaded. A queueLimit of 0 means no limit. Without this
// option a replica serves every request in parallel.
func WithWorkers(workers, queueLimit int) Option {
	return func(o *options) { o.workers, o.queueLimit = workers, queueLimit }
}

// WithMaxDigestVersion makes the replica act as a node of an older build
// during a rolling upgrade, one that knows digest versions up to v only: it
// reports v through MaxDigestVersion, answers a digest-only read at the
// version the command asks for, or at v if it asks for the newest (0), and
// refuses one that asks for a version above v (a *replica.CommandError
// wrapping a *digest.VersionError), as Command.Respond refuses a version no
// build knows: a coordinator must ask for a version every replica it
// contacts knows. v must be from digest.V1 to digest.Latest, the default.
func WithMaxDigestVersion(v byte) Option {
	return func(o *options) { o.maxDigest = v }
}

// withMember derives the seed of a cluster's i-th replica from the seed
// set so far, the cluster's or one a WithSeed in its Options gave.
func withMember(i int) Option {
	return func(o *options) { o.seed = mix(o.seed, i) }
}

// withStart sets the instant pause windows are measured from.
func withStart(t time.Time) Option {
	return func(o *options) { o.start = t }
}

// withClusterSlowdown shares a cluster's slowdown factor with the replica.
func withClusterSlowdown(f *factor) Option {
	return func(o *options) { o.cluster = f }
}

func (o *options) validate() error {
	if o.workers < 0 {
		return invalid("workers", "%d is negative", o.workers)
	}
	if o.queueLimit < 0 {
		return invalid("queue limit", "%d is negative", o.queueLimit)
	}
	if o.workers == 0 && o.queueLimit != 0 {
		return invalid("queue limit", "%d set without workers", o.queueLimit)
	}
	if o.maxDigest < digest.V1 || o.maxDigest > digest.Latest {
		return invalid("max digest version", "%d is not from %d to %d", o.maxDigest, digest.V1, digest.Latest)
	}
	return o.behavior.Validate()
}

// idSeed derives a default seed from a replica ID.
func idSeed(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}
