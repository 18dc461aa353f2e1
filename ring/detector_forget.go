package ring

// Forget drops node id: its heartbeats, its conviction and its count of
// connection failures, and stops probing it, as Cassandra's gossiper drops
// a node that left the ring from its failure detector. Call it when a node
// leaves for good (after Locator.RemoveNode or ReplaceNode, with
// coordinator.Coordinator.ForgetReplica), once the reads in flight to it
// are done: a later heartbeat or outcome tracks it again, as a node never
// heard of. Without it, a removed node stays in Down, has its phi
// evaluated, and is probed, for as long as the detector runs. No Change is
// delivered for a forgotten node after Forget returns, except one already
// queued. Forgetting an unknown node does nothing.
//
// Call it too when an ID comes back with a new connection (ReplaceNode
// under the same ID, or AddNode of a removed node's ID), for a fresh
// start. A failure of the old connection reported after Forget convicts
// the ID again; with DetectorConfig.Replicas, the next probe, through the
// new connection, readmits it.
func (d *Detector) Forget(id string) {
	d.addMu.Lock()
	t := d.all[id]
	if t == nil {
		d.addMu.Unlock()
		return
	}
	delete(d.all, id)
	if tb := d.nodes.Load(); tb.remove(id) {
		d.nodes.Store(tb.shrunk())
	}
	d.addMu.Unlock()

	t.mu.Lock()
	t.gone = true
	cancel := t.cancel
	t.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}
