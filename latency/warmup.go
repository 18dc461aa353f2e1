package latency

// A percentile of a handful of samples is their maximum: the 99th percentile
// of 20 reads is the slowest of them, and a threshold set from it would
// follow one unlucky read. So a Threshold takes its first value from a
// table's samples as soon as there are enough of them for the percentile to
// be an estimate of the tail, and not before (Cassandra instead waits for
// its first refresh, a read timeout in, and uses what is there).

// tailSamples is how many samples must lie above the p-quantile of the first
// samples: with n >= tailSamples/(1-p) samples, at least tailSamples of them
// are above the nearest-rank p-quantile, so neither the slowest sample nor
// the second slowest sets the first threshold.
const tailSamples = 2

// minSamples returns how many samples the policy's percentile needs before
// it sets the first threshold: ⌈tailSamples/(1-p)⌉, that is 4 for 50p, 20
// for 90p, 200 for 99p and 2000 for 99.9p. It is 0 for a policy without a
// percentile, and for one that needs more samples than a tracker counts
// early (99.997p and above), which takes its first value at its first refresh.
func (s SpeculativeRetry) minSamples() uint32 {
	s = s.norm()
	if !s.followsLatency() || s.kind == KindFixed {
		return 0
	}
	above := uint64(100*pctScale - s.pct) // 1-p, in units of 1/(100·pctScale)
	n := (tailSamples*100*pctScale + above - 1) / above
	if n > earlyCap {
		return 0
	}
	return uint32(n)
}
