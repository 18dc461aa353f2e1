package coordinator

import (
	"sync"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// diffRooms keeps the memory BLOCKING repairs build their writes in, when
// Config.ReuseRepairWrites allows (see repair.DiffRoom).
var diffRooms = sync.Pool{New: func() any { return new(repair.DiffRoom) }}

// maxPooledRoom is the most memory a kept room may hold: a repair of a
// large partition leaves its room to the collector.
const maxPooledRoom = maxPooledBlocks

// takeRooms returns a room for the diff of each of n versions, or nil if
// the read builds its diffs in new memory.
func (r *read) takeRooms(n int) []*repair.DiffRoom {
	if !r.c.cfg.ReuseRepairWrites || r.opts.ReadRepair != repair.Blocking {
		return nil
	}
	rooms := r.roomBuf[:0]
	for range n {
		rooms = append(rooms, diffRooms.Get().(*repair.DiffRoom))
	}
	return rooms
}

// returnRooms keeps for later repairs the rooms of diffs that no write
// holds any longer: empty ones, and those whose BLOCKING write returned.
// A write still pending (handed to the ASYNC queue) keeps its room, as
// does every write of a repair that went to the queue whole.
func (r *read) returnRooms(rooms []*repair.DiffRoom, diffs []replica.Partition) {
	k := 0 // the index in r.stale of the next stale diff
	for i, room := range rooms {
		free := diffs[i].IsEmpty()
		if !free {
			free = r.stale != nil && r.trace.Requests[r.staleFirst+k].Outcome != Pending
			k++
		}
		if free {
			room.Reset()
			if room.Size() <= maxPooledRoom {
				diffRooms.Put(room)
			}
		}
	}
	clear(rooms)
}
