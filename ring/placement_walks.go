package ring

// walkLog holds the walks a change made on the new ring: per range, how
// many tokens its walk met and the node positions it took. They sit in
// blocks, each twice the size of the one before up to walkBlock entries,
// so that the log allocates about what it holds: one slice grown by
// append allocated five times that, and a slice per range 24 bytes a
// range of the ring, walked or not.
type walkLog struct {
	at     []uint32  // per range: 1 + its block<<walkShift + its offset there; 0 if not walked
	blocks [][]int32 // of records: tokens met, the count of nodes taken, their positions
}

const (
	walkShift = 14
	walkBlock = 1 << walkShift
)

func newWalkLog(ranges int) *walkLog {
	return &walkLog{at: make([]uint32, ranges)}
}

// add records range i's walk: it met met tokens and took picked.
func (l *walkLog) add(i, met int, picked []int32) {
	n := len(l.blocks)
	if n == 0 || len(l.blocks[n-1])+2+len(picked) > cap(l.blocks[n-1]) {
		size := 256
		if n > 0 {
			size = min(2*cap(l.blocks[n-1]), walkBlock)
		}
		l.blocks = append(l.blocks, make([]int32, 0, max(size, 2+len(picked))))
		n++
	}
	b := l.blocks[n-1]
	l.at[i] = 1 + uint32(n-1)<<walkShift + uint32(len(b))
	l.blocks[n-1] = append(append(b, int32(met), int32(len(picked))), picked...)
}

// record returns range i's record, or nil if it was not walked.
func (l *walkLog) record(i int) []int32 {
	if l == nil || l.at[i] == 0 {
		return nil
	}
	at := l.at[i] - 1
	b := l.blocks[at>>walkShift]
	rec := b[at&(walkBlock-1):]
	return rec[:2+rec[1]]
}

// met returns how many tokens range i's walk met, and whether it was walked.
func (l *walkLog) met(i int) (int, bool) {
	if rec := l.record(i); rec != nil {
		return int(rec[0]), true
	}
	return 0, false
}

// taken returns the nodes range i's walk took, not nil even if none, or nil
// if it was not walked.
func (l *walkLog) taken(i int) []int32 {
	if rec := l.record(i); rec != nil {
		return rec[2:]
	}
	return nil
}
