package ring

import (
	"errors"
	"fmt"
	"strconv"
)

var (
	// ErrInvalidTopology is matched (errors.Is) by every error that rejects
	// a set of nodes: *NodeError, *DuplicateNodeError, *DuplicateTokenError.
	ErrInvalidTopology = errors.New("ring: invalid topology")
	// ErrUnknownTable is matched by a *TableError from Locator.Locate.
	ErrUnknownTable = errors.New("ring: unknown table")
	// ErrUnknownNode reports a node ID the ring does not hold.
	ErrUnknownNode = errors.New("ring: unknown node")
	// ErrInvalidConfig is matched by every *ConfigError.
	ErrInvalidConfig = errors.New("ring: invalid configuration")
)

// NodeError rejects one node: an empty ID, no tokens, or (for a Locator) a
// replica from Connect that is nil or whose endpoint does not match the node.
// It is not modified after it is returned, so it may be shared between
// goroutines.
type NodeError struct {
	ID     string
	Reason string
}

func (e *NodeError) Error() string { return "ring: node " + strconv.Quote(e.ID) + ": " + e.Reason }

// Is makes errors.Is(err, ErrInvalidTopology) hold.
func (e *NodeError) Is(target error) bool { return target == ErrInvalidTopology }

// DuplicateNodeError reports two nodes with the same ID. It is not
// modified after it is returned, so it may be shared between goroutines.
type DuplicateNodeError struct{ ID string }

func (e *DuplicateNodeError) Error() string { return "ring: duplicate node " + strconv.Quote(e.ID) }

// Is makes errors.Is(err, ErrInvalidTopology) hold.
func (e *DuplicateNodeError) Is(target error) bool { return target == ErrInvalidTopology }

// DuplicateTokenError reports a token held twice, by one node or by two.
// It is not modified after it is returned, so it may be shared between
// goroutines.
type DuplicateTokenError struct {
	Token int64
	// Nodes are the IDs of the two holders, in input order; equal if one
	// node lists the token twice.
	Nodes [2]string
}

func (e *DuplicateTokenError) Error() string {
	return fmt.Sprintf("ring: token %d held by %q and %q", e.Token, e.Nodes[0], e.Nodes[1])
}

// Is makes errors.Is(err, ErrInvalidTopology) hold.
func (e *DuplicateTokenError) Is(target error) bool { return target == ErrInvalidTopology }

// ComponentError reports a composite-key component too long to encode. It
// is not modified after it is returned, so it may be shared between
// goroutines.
type ComponentError struct {
	Index  int // position of the component
	Length int // its length in bytes, above MaxComponent
}

func (e *ComponentError) Error() string {
	return fmt.Sprintf("ring: composite key component %d is %d bytes, more than %d", e.Index, e.Length, MaxComponent)
}

// TableError reports a table the Locator has no replication for. It is
// not modified after it is returned, so it may be shared between
// goroutines.
type TableError struct{ Table string }

func (e *TableError) Error() string { return "ring: unknown table " + strconv.Quote(e.Table) }

// Is makes errors.Is(err, ErrUnknownTable) hold.
func (e *TableError) Is(target error) bool { return target == ErrUnknownTable }

// ConfigError says which setting of a Locator or Detector configuration is
// invalid and why. Nothing was changed. It is not modified after it is
// returned, so it may be shared between goroutines.
type ConfigError struct {
	Setting string
	Reason  string
	Err     error // the underlying error: another package's, or a *DatacenterError
}

func (e *ConfigError) Error() string { return "ring: invalid " + e.Setting + ": " + e.Reason }

// Is makes errors.Is(err, ErrInvalidConfig) hold.
func (e *ConfigError) Is(target error) bool { return target == ErrInvalidConfig }

// Unwrap returns the underlying error, if any.
func (e *ConfigError) Unwrap() error { return e.Err }

func unknownNode(id string) error { return fmt.Errorf("%w %q", ErrUnknownNode, id) }

// DatacenterError reports a table whose replication places replicas in a
// datacenter where the ring has no node, as Cassandra 4.0 and later refuse a
// NetworkTopologyStrategy naming an unknown datacenter (CASSANDRA-12681):
// the reads that need replicas there would fail, every read if it is the
// only datacenter named. Names are compared exactly, so "DC1" is not "dc1".
// It comes as the Err of a *ConfigError. It is not modified after it is
// returned, so it may be shared between goroutines.
type DatacenterError struct {
	Table      string
	Datacenter string
	Known      []string // the ring's datacenters, sorted
}

func (e *DatacenterError) Error() string {
	return "ring: table " + strconv.Quote(e.Table) + " replicates to " + e.reason()
}

func (e *DatacenterError) reason() string {
	return fmt.Sprintf("datacenter %q, where the ring has no node (its datacenters: %q)", e.Datacenter, e.Known)
}

// ConnectError reports that LocatorConfig.Connect failed for a node. It
// is not modified after it is returned, so it may be shared between
// goroutines.
type ConnectError struct {
	Node string
	Err  error
}

func (e *ConnectError) Error() string {
	msg := "ring: connecting to node " + strconv.Quote(e.Node)
	if e.Err == nil { // a value made by hand: Error must not panic
		return msg + " failed"
	}
	return msg + ": " + e.Err.Error()
}

// Unwrap returns Connect's error.
func (e *ConnectError) Unwrap() error { return e.Err }
