package digest_test

import (
	"fmt"

	"github.com/readpath/readpath/digest"
)

// An encoding is a version byte and then fields; the digest changes with any
// of them, and prints and parses as hex.
func ExampleEncoder() {
	var e digest.Encoder
	e.ResetAppending(digest.V1, nil)
	e.String("user:42")
	e.Bool(false)
	e.Int64(1700000000000000)
	fmt.Printf("% x\n", e.Appended())

	d := e.Sum()
	parsed, err := digest.ParseDigest(d.String())
	fmt.Println(d, parsed == d, err)
	// Output:
	// 01 07 75 73 65 72 3a 34 32 00 00 40 1e 18 24 0a 06 00
	// 5f0dae6030066b23b9f57a46826cd15e true <nil>
}
