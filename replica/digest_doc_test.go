package replica_test

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// TestDigestDocExampleSizes checks the sizes package digest's documentation
// gives for its example partition (key "k", row "r", cell c="v" at 1)
// against the encodings: "this example takes N bytes, against M in version
// 1".
func TestDigestDocExampleSizes(t *testing.T) {
	doc, err := os.ReadFile("../digest/doc.go")
	require.NoError(t, err)
	m := regexp.MustCompile(`takes (\d+) bytes, against (\d+) in version 1`).FindSubmatch(doc)
	require.NotNil(t, m, "the sentence giving the example's sizes")
	p := replica.NewPartition("k", replica.NewRow("r", replica.Live("c", "v", 1)))
	v1, err := p.AppendCanonicalAt(nil, digest.V1)
	require.NoError(t, err)
	require.Equal(t, string(m[1]), strconv.Itoa(len(p.AppendCanonical(nil))), "version 2 size in the doc")
	require.Equal(t, string(m[2]), strconv.Itoa(len(v1)), "version 1 size in the doc")
}
