package main

import (
	"slices"
	"sync"
	"time"
)

// thresholdLog keeps the speculative-retry thresholds measured reads ran
// with, in the order they ended, for the model to hedge at the same.
type thresholdLog struct {
	mu  sync.Mutex
	all []time.Duration
}

func (l *thresholdLog) add(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, d)
}

func (l *thresholdLog) list() []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.all)
}
