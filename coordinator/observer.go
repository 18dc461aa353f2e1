package coordinator

import (
	"context"
	"encoding/json"
	"time"

	"github.com/readpath/readpath/internal/errtext"
	"github.com/readpath/readpath/internal/jsonbytes"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Observer is told about hedges and repairs as they happen, for logging,
// tracing or tests. Its methods are called synchronously on the read's
// goroutine, an ASYNC repair worker's, or Close's for the queued repairs it
// drops (so an Observer must not wait on a lock held around Close); they
// must be quick and must not block. They may be called concurrently: an
// Observer must be safe for concurrent use. A
// panic in them is logged (Config.Logger) and otherwise ignored; a
// runtime.Goexit (t.FailNow) ends the goroutine, and a read it ends counts
// in OtherErrors, its hedges, if its first round had not ended, as failed.
// Close does not wait for an ASYNC repair worker calling the Observer (it
// may be the one calling Close), so the RepairEvent of a repair a worker
// ended, counted in Metrics, may arrive just after Close returns.
type Observer interface {
	OnHedge(HedgeEvent)
	OnRepair(RepairEvent)
}

// ContextObserver is an Observer that is also given the context of the
// read an event belongs to: the ctx passed to Read (or ReadMany's for the
// key), so that a tracer can attach the event to the caller's span
// (trace.SpanFromContext, say) or link an ASYNC repair to it. When
// Config.Observer implements it, its Context methods are called instead of
// OnHedge and OnRepair, under the same rules. An ASYNC repair's event
// comes after its read returned, when ctx may be done: use its values only.
//
// An Observer that wraps another (to count events, say) hides the wrapped
// one's ContextObserver unless it is one too: implement the Context methods,
// calling the wrapped observer's Context methods if it has them, else its
// OnHedge and OnRepair. Like an Observer, it must be safe for concurrent
// use.
type ContextObserver interface {
	Observer
	OnHedgeContext(ctx context.Context, e HedgeEvent)
	OnRepairContext(ctx context.Context, e RepairEvent)
}

// observeHedge tells the Observer of e, with ctx if it takes it.
func (c *Coordinator) observeHedge(ctx context.Context, e HedgeEvent) {
	o := c.cfg.Observer
	if o == nil {
		return
	}
	defer c.recoverHook("Observer.OnHedge")
	if co, ok := o.(ContextObserver); ok {
		co.OnHedgeContext(ctx, e)
		return
	}
	o.OnHedge(e)
}

// observeRepair tells the Observer of e, with ctx if it takes it.
func (c *Coordinator) observeRepair(ctx context.Context, e RepairEvent) {
	o := c.cfg.Observer
	if o == nil {
		return
	}
	defer c.recoverHook("Observer.OnRepair")
	if co, ok := o.(ContextObserver); ok {
		co.OnRepairContext(ctx, e)
		return
	}
	o.OnRepair(e)
}

// reportOutcome tells the outcome reporter, if any, of o.
func (c *Coordinator) reportOutcome(o replica.Outcome) {
	if out := c.cfg.Outcomes; out != nil {
		defer c.recoverHook("Outcomes.ReportOutcome")
		out.ReportOutcome(o)
	}
}

// recoverHook, deferred around a call into the embedder's Observer or
// outcome reporter, logs a panic there and carries on, as for a replica's:
// passed on, it left a read's counts half booked, stopped Close halfway,
// and, from an ASYNC repair worker, took the process down.
func (c *Coordinator) recoverHook(hook string) {
	if v := recover(); v != nil {
		c.logHookPanic(hook, v)
	}
}

// logHookPanic logs that the embedder's hook panicked with v.
func (c *Coordinator) logHookPanic(hook string, v any) {
	if c.cfg.Logger != nil {
		c.cfg.Logger.Warn("hook panicked", "hook", hook, "panic", v)
	}
}

// HedgeEvent is a speculative action that was taken: a request, or (for
// additional writes) the first of its requests. It is a plain value, safe
// for concurrent reads. In JSON Kind and Phase are their names, and At,
// Threshold and After nanoseconds.
type HedgeEvent struct {
	Table, Key string
	To         replica.Endpoint
	Kind       RequestKind
	// Phase is the round the hedge was sent in: PhaseInitial for a hedge
	// of the first round (the trace shows that request itself as
	// PhaseSpeculative), PhaseReconcile, or PhaseRepair for additional
	// writes.
	Phase Phase
	// At is when it was sent, from the start of the read (as
	// HedgeTrace.At); Threshold is the table's read threshold the read
	// loaded as it started (Trace.Threshold), in every phase: additional
	// writes wait on the AdditionalWritePolicy threshold instead.
	At        time.Duration
	Threshold time.Duration
	// Deprecated: After is At, under its old name.
	After time.Duration
}

// RepairEvent is the outcome of one read-repair write. It is a plain
// value, safe for concurrent reads; see Mutation for how long its memory
// lasts.
type RepairEvent struct {
	Table, Key string
	To         replica.Endpoint
	// Mode is how the write ran: Blocking when a read waited for it, Async
	// when the background queue ran it, a BLOCKING table's too when its
	// read timed out waiting for it or did not need it to meet the level.
	Mode repair.Mode
	// Mutation is what was sent: exactly what the replica lacked. Under
	// Config.ReuseRepairWrites it may be memory a later repair reuses:
	// copy what you keep of it.
	Mutation replica.Partition
	// Dropped says the repair was never sent: the ASYNC queue was full,
	// the coordinator closed, its table dropped, or its replica
	// forgotten, reported down, backlogged, timing out or slow before its
	// turn. Its Err is then ErrTableDropped if its table was dropped, a
	// *BacklogError if its replica was backlogged (see BacklogError), a
	// *RepairTimingOutError if a write to its replica had just timed out,
	// a *RepairSlowError if one was running and the last took half the
	// read timeout or more, and nil for the other causes: look at Dropped
	// before Err. A repair that was sent has Err nil when the replica
	// acknowledged it. A repair given up on (see
	// TableMetrics.RepairsAbandoned) has no event.
	Err     error
	Dropped bool
	// Sent is when the write went out, and Took how long it ran until
	// the replica acknowledged or failed it: a tracer's span of an ASYNC
	// repair, which runs after its read returned. Zero for a dropped one.
	Sent time.Time
	Took time.Duration
}

// hedgeEventFields is HedgeEvent without its methods, for its JSON.
type hedgeEventFields HedgeEvent

// MarshalJSON implements json.Marshaler: Key is bytes, as
// replica.Partition's is.
func (e HedgeEvent) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Table string
		Key   jsonbytes.String // shadows the embedded Key
		hedgeEventFields
	}{e.Table, jsonbytes.String(e.Key), hedgeEventFields(e)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (e *HedgeEvent) UnmarshalJSON(b []byte) error {
	v := struct {
		Table *string
		Key   *jsonbytes.String
		*hedgeEventFields
	}{&e.Table, (*jsonbytes.String)(&e.Key), (*hedgeEventFields)(e)}
	return json.Unmarshal(b, &v)
}

// repairEventFields is RepairEvent without its methods, for its JSON.
type repairEventFields RepairEvent

// MarshalJSON implements json.Marshaler: Err is written as its text, or
// null when nil, as RequestTrace's is; Took is nanoseconds; Key is bytes,
// as replica.Partition's is.
func (e RepairEvent) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Table string
		Key   jsonbytes.String // shadows the embedded Key
		repairEventFields
		Err *string // shadows the embedded Err
	}{e.Table, jsonbytes.String(e.Key), repairEventFields(e), errtext.Of(e.Err)})
}

// UnmarshalJSON implements json.Unmarshaler: an Err written as text reads
// back as an error whose Error() is that text (errors.Is and errors.As do
// not find ErrTableDropped or a *BacklogError in it), null as nil.
func (e *RepairEvent) UnmarshalJSON(b []byte) error {
	v := struct {
		Table *string
		Key   *jsonbytes.String
		*repairEventFields
		Err json.RawMessage // shadows the embedded Err
	}{Table: &e.Table, Key: (*jsonbytes.String)(&e.Key), repairEventFields: (*repairEventFields)(e)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return errtext.Read(&e.Err, v.Err, "coordinator: RepairEvent.Err")
}

// ObserverFuncs adapts functions to Observer; nil fields are skipped. It
// is safe for concurrent use if its functions are.
type ObserverFuncs struct {
	Hedge  func(HedgeEvent)
	Repair func(RepairEvent)
}

// OnHedge calls f.Hedge if set.
func (f ObserverFuncs) OnHedge(e HedgeEvent) {
	if f.Hedge != nil {
		f.Hedge(e)
	}
}

// OnRepair calls f.Repair if set.
func (f ObserverFuncs) OnRepair(e RepairEvent) {
	if f.Repair != nil {
		f.Repair(e)
	}
}
