package replicatest

import (
	"context"
	"testing"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// checkDigestVersioner checks what replica.DigestVersioner asks of a
// replica that implements it: MaxDigestVersion is at least digest.V1 (a
// coordinator takes an invalid 0 for V1, the version every build knows),
// and it does not change while the replica is in use, here from before its
// first call to after reads and writes: a coordinator that asked for a
// version the replica then stopped supporting would fail its reads.
func checkDigestVersioner(t *testing.T, r replica.Replica) {
	dv, ok := r.(replica.DigestVersioner)
	if !ok {
		return
	}
	first, err := call(t, "MaxDigestVersion", func(context.Context) (byte, error) { return dv.MaxDigestVersion(), nil })
	if err != nil {
		return // call has reported it
	}
	if first < digest.V1 {
		t.Errorf("MaxDigestVersion() = %d, want at least %d (digest.V1)", first, digest.V1)
	}
	older, _ := versions("k")
	apply(t, r, older)
	readData(t, r, replica.Command{Table: conformanceTable, Key: "k"})
	readDigest(t, r, replica.Command{Table: conformanceTable, Key: "k", DigestVersion: digest.V1})
	then, err := call(t, "MaxDigestVersion", func(context.Context) (byte, error) { return dv.MaxDigestVersion(), nil })
	if err == nil && then != first {
		t.Errorf("MaxDigestVersion() changed from %d to %d after a write and reads: it must not change while the replica is in use", first, then)
	}
}
