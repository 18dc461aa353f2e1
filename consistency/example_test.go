package consistency_test

import (
	"errors"
	"fmt"

	"github.com/readpath/readpath/consistency"
)

func ExampleLevel_BlockFor() {
	r := consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 2})
	for _, l := range []consistency.Level{consistency.One, consistency.LocalQuorum, consistency.Quorum, consistency.EachQuorum, consistency.All} {
		fmt.Printf("%-12s %d\n", l, l.BlockFor(r, "dc1"))
	}
	// Output:
	// ONE          1
	// LOCAL_QUORUM 2
	// QUORUM       3
	// EACH_QUORUM  4
	// ALL          5
}

func ExampleAssureSufficientLive() {
	r := consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})
	err := consistency.AssureSufficientLive(consistency.EachQuorum, r, "dc1", map[string]int{"dc1": 3, "dc2": 1})
	var u *consistency.UnavailableError
	if errors.As(err, &u) {
		fmt.Println(u.Datacenter, u.Required, u.Alive)
		fmt.Println(err)
	}
	// Output:
	// dc2 2 1
	// Cannot achieve consistency level EACH_QUORUM in DC dc2 (2 required but only 1 alive)
}

func ExampleParseLevel() {
	l, err := consistency.ParseLevel("local_quorum")
	fmt.Println(l, uint8(l), err)
	_, err = consistency.ParseLevel("MOST")
	fmt.Println(err)
	// Output:
	// LOCAL_QUORUM 6 <nil>
	// consistency: unknown consistency level "MOST"
}
