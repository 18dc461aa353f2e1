package replica_test

import (
	"fmt"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// A replica answers a digest-only read with Digest. The canonical bytes and
// the digest printed here pin encoding version 2: if either changes,
// replicas built from different versions of this library would disagree
// about everything, so the change needs a new version.
func ExamplePartition_Digest() {
	p := replica.NewPartition("k",
		replica.NewRow("r", replica.Live("c", "v", 1)),
	)
	fmt.Printf("% x\n", p.AppendCanonical(nil))
	fmt.Println(p.Digest())

	q := p.Clone()
	q.Rows[0].Cells[0].Timestamp = 2
	fmt.Println(q.Digest() == p.Digest())
	// Output:
	// 02 01 6b 00 01 01 72 00 01 01 63 00 01 76 01 00 00 00 00 00 00 00
	// c2c439a86285e6518451e4f3556cf2a2
	// false
}

// Version 1 stays byte for byte what it was, so that replicas of an older
// build and of this one agree while a cluster upgrades.
func ExamplePartition_DigestAt() {
	p := replica.NewPartition("k",
		replica.NewRow("r", replica.Live("c", "v", 1)),
	)
	enc, _ := p.AppendCanonicalAt(nil, digest.V1)
	fmt.Printf("% x\n", enc)
	d, err := p.DigestAt(digest.V1)
	fmt.Println(d, err)
	// Output:
	// 01 01 6b 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 01 72 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 01 63 00 01 76 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
	// 89aa71ee7901c60ba224cc4f547c45af <nil>
}
