package ring

import (
	"maps"
	"slices"

	"github.com/readpath/readpath/consistency"
)

// checkDatacenters refuses a table that replicates to a datacenter where r
// has no node. Cassandra's validateExpectedOptions refuses it at CREATE and
// ALTER KEYSPACE (an error, not a warning), after dropping the datacenters
// given a factor of 0, which is how a datacenter is phased out: so is a
// factor of 0 accepted here. Tables are checked in name order, so the error
// names the same table every time.
func checkDatacenters(r *Ring, tables map[string]consistency.Replication) error {
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		if err := checkTableDatacenters(r, name, tables[name]); err != nil {
			return err
		}
	}
	return nil
}

func checkTableDatacenters(r *Ring, table string, repl consistency.Replication) error {
	for _, f := range repl.Datacenters() { // sorted by name; nil under Simple
		if _, ok := r.dcs[f.Datacenter]; ok || f.Factor == 0 {
			continue
		}
		e := &DatacenterError{Table: table, Datacenter: f.Datacenter, Known: slices.Sorted(maps.Keys(r.dcs))}
		return &ConfigError{Setting: "replication of table " + table, Reason: e.reason(), Err: e}
	}
	return nil
}
