package replicatest

import "time"

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

// draw picks a request's service time: a random pause, if the coin says so,
// plus its latency scaled by the slowdowns. The draws are made in a fixed
// order so that a seed gives the same sequence on every run.
func (r *Replica) draw(b *Behavior) time.Duration {
	if b.Latency == nil && b.PauseChance == 0 {
		return 0
	}
	r.rngMu.Lock()
	defer r.rngMu.Unlock()
	var service, pause time.Duration
	if b.Latency != nil {
		service = max(0, b.Latency.Sample(r.rng))
	}
	if b.PauseChance > 0 && r.rng.Float64() < b.PauseChance {
		pause = max(0, b.PauseLength.Sample(r.rng))
	}
	return addSat(pause, scale(service, b.factor()*r.cluster.load()))
}
