package replicatest

import (
	"fmt"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// versionHint explains a wrong digest that is stored's digest at another
// version than cmd asked for (an adapter that ignored cmd.DigestVersion),
// or returns "".
func versionHint(cmd replica.Command, stored replica.Partition, got digest.Digest) string {
	for v := digest.V1; v <= digest.Latest; v++ {
		if v == cmd.DigestVersion {
			continue
		}
		at := cmd
		at.DigestVersion = v
		if want, err := at.Respond(stored); err == nil && want.Digest == got {
			return fmt.Sprintf(" (the digest at version %d: digest at the command's DigestVersion, as Respond does)", v)
		}
	}
	return ""
}
