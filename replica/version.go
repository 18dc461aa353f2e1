package replica

import (
	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/internal/typednil"
)

// DigestVersioner is implemented by a Replica adapter whose node may not
// answer every digest version this build knows: during a rolling upgrade,
// an adapter reports the newest version its node supports, and the
// coordinator asks every replica it contacts for the newest version they all
// support (DigestVersionFor). A replica that does not implement it is taken
// to support digest.Latest. MaxDigestVersion must be at least digest.V1,
// must not change while the replica is in use, and must be safe for
// concurrent use.
type DigestVersioner interface {
	MaxDigestVersion() byte
}

// DigestVersionFor returns the newest digest version that every one of
// replicas supports: the least of their MaxDigestVersion, where a replica
// without one supports digest.Latest, a version above digest.Latest counts
// as digest.Latest and an invalid 0 as digest.V1, the version every build
// knows. With no replicas it returns digest.Latest. A nil Replica, or one
// that holds a nil pointer, is skipped.
func DigestVersionFor(replicas ...Replica) byte {
	v := digest.Latest
	for _, r := range replicas {
		dv, ok := r.(DigestVersioner)
		if !ok || typednil.Holds(dv) { // a nil pointer's method would crash
			continue
		}
		v = min(v, max(dv.MaxDigestVersion(), digest.V1))
	}
	return v
}
