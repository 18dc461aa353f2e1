package replicatest

// Behavior returns a copy of the replica's current Behavior.
func (r *Replica) Behavior() Behavior { return r.behavior.Load().clone() }

// SetBehavior replaces the replica's Behavior. Requests already in flight
// keep the one they started with; new requests use b. An invalid b is
// reported as a *ConfigError and changes nothing.
func (r *Replica) SetBehavior(b Behavior) error {
	return r.update(func(cur *Behavior) { *cur = b.clone() })
}

// SetLatency replaces the Latency of the replica's Behavior.
func (r *Replica) SetLatency(l Latency) error {
	return r.update(func(b *Behavior) { b.Latency = l })
}

// SetSlowdown replaces the Slowdown of the replica's Behavior.
func (r *Replica) SetSlowdown(f float64) error {
	return r.update(func(b *Behavior) { b.Slowdown = f })
}

// SetFault replaces the Fault of the replica's Behavior; the zero Fault
// heals it.
func (r *Replica) SetFault(f Fault) error {
	return r.update(func(b *Behavior) { b.Fault = f })
}

// AddPause adds a scheduled pause window to the replica's Behavior.
func (r *Replica) AddPause(w Window) error {
	return r.update(func(b *Behavior) { b.Pauses = append(b.Pauses, w) })
}

// update applies change to a copy of the Behavior and installs it if valid.
// The lock only orders concurrent updates; readers load the pointer.
func (r *Replica) update(change func(*Behavior)) error {
	r.setMu.Lock()
	defer r.setMu.Unlock()
	b := r.behavior.Load().clone()
	change(&b)
	if err := b.Validate(); err != nil {
		return err
	}
	r.behavior.Store(&b)
	return nil
}
