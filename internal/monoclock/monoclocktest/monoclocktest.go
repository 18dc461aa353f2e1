// Package monoclocktest builds, for tests, the times time.Now returns after
// the system clock was stepped.
package monoclocktest

import (
	"time"
	"unsafe"
)

// StepWall returns t, which must carry a monotonic reading, with its wall
// clock moved by d (whole seconds) and its monotonic reading kept. The time
// package cannot build one, so this moves the seconds the wall field holds
// in bits 30 to 62 when a monotonic reading is present (the layout since Go
// 1.9); it returns false if the result does not read as such a time.
func StepWall(t time.Time, d time.Duration) (time.Time, bool) {
	stepped := t
	fields := (*struct {
		wall uint64
		ext  int64
	})(unsafe.Pointer(&stepped))
	fields.wall += uint64(int64(d/time.Second)) << 30
	ok := t != t.Round(0) && d%time.Second == 0 &&
		stepped.Round(0).UnixNano() == t.Round(0).UnixNano()+int64(d) && stepped.Sub(t) == 0
	return stepped, ok
}
