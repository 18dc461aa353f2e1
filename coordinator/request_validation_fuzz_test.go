package coordinator_test

import (
	"context"
	"errors"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// FuzzRequestValidation sends Read a Request whose every field a client
// controls is fuzzed (table, key, level as a raw byte, slices with any
// bounds, limit, order, columns, page size, read time, paging state bytes)
// and checks Request's and ErrInvalidRequest's godocs: the read fails with
// an error wrapping ErrInvalidRequest exactly when the request is unusable
// (no table or key, ANY, a serial or undefined level, a DC-local level with
// no local datacenter configured, a negative read time or page size, an
// invalid query, a paging state that does not decode or resume this read);
// a table never seeded reads as empty; and a usable read returns a valid partition of the
// query, within its limit and page size, at the read time asked for, and,
// read from its start, the rows the seeded partition holds under it.
func FuzzRequestValidation(f *testing.F) {
	f.Add(uint8(0), uint8(4), []byte{1, 1, 3, 5}, uint16(8), int64(0), int64(now), []byte{})
	f.Add(uint8(1), uint8(5), []byte{}, uint16(3|8<<4), int64(2), int64(0), []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint8(2), uint8(6), []byte{0, 0, 5, 0}, uint16(0), int64(-1), int64(-5), []byte{})
	f.Add(uint8(3), uint8(0), []byte{6, 1, 3, 2}, uint16(1<<9), int64(1), int64(now), []byte{2})
	f.Add(uint8(0), uint8(8), []byte{}, uint16(0), int64(0), int64(now), []byte{})
	f.Add(uint8(0), uint8(42), []byte{}, uint16(0), int64(0), int64(now), []byte{})
	f.Add(uint8(0), uint8(4), []byte{}, uint16(0x106), int64(0), int64(now), []byte{}) // every row
	f.Fuzz(func(t *testing.T, target, level uint8, sliceBytes []byte, shape uint16, pageSize, nowInSec int64, state []byte) {
		var slices []replica.Slice
		for i := 0; i+3 < len(sliceBytes) && len(slices) < 3; i += 4 {
			b := func(j int) replica.Bound {
				return replica.Bound{Kind: replica.BoundKind(sliceBytes[i+j] % 8), Clustering: fuzzKeys[int(sliceBytes[i+j+1])%len(fuzzKeys)]}
			}
			slices = append(slices, replica.Slice{Start: b(0), End: b(2)})
		}
		q := replica.Query{Slices: slices, Reversed: shape&1 != 0, Limit: int(int8(shape>>1)) % 5}
		if shape&(1<<8) != 0 {
			q.Slices = nil
		}
		var columns []string
		if shape&(1<<9) != 0 {
			columns = []string{"b", "a"}
		}
		req := coordinator.Request{Table: []string{tbl, "", "nosuchtable", tbl}[target%4], Key: []string{"k1", "k0", "k1", ""}[target>>2%4],
			Level: consistency.Level(level % 16), Query: q, Columns: columns, PageSize: int(max(min(pageSize, 1<<20), -1<<20)),
			NowInSec: nowInSec, PagingState: state}
		var res coordinator.Result
		var err error
		readsAtOnce(t, overFuzzCluster, func(_ *testing.T, c *coordinator.Coordinator) {
			res, err = c.Read(context.Background(), req)
		})

		why := ""
		switch {
		case req.Table == "" || req.Key == "":
			why = "no table or key"
		case req.Level == consistency.Any || req.Level.IsSerial() || !req.Level.Valid():
			why = "level " + req.Level.String()
		case req.Level.IsDatacenterLocal():
			why = "DC-local level without a local datacenter"
		case req.NowInSec < 0 || req.PageSize < 0:
			why = "negative"
		case q.Validate() != nil:
			why = "query"
		case len(state) > 0:
			var s replica.PagingState
			if s.UnmarshalBinary(state) != nil {
				why = "state does not decode"
			} else if _, err := s.Resume(req.Table, req.Key, req.Query, req.Columns); err != nil {
				why = "state of another read"
			}
		}
		if why != "" {
			if !errors.Is(err, coordinator.ErrInvalidRequest) {
				t.Fatalf("Read(%+v) = %v, want ErrInvalidRequest (%s)", req, err, why)
			}
			return
		}
		// fuzzCluster knows every table (ClusterConfig.Tables is empty):
		// one never seeded reads as an empty partition.
		if req.Table == "nosuchtable" && err == nil && len(res.Partition.Rows) > 0 {
			t.Fatalf("Read of an unseeded table returned rows: %v", res.Partition)
		}
		if err != nil {
			t.Fatalf("Read(%+v): %v", req, err)
		}
		if err := res.Partition.Validate(); err != nil {
			t.Fatalf("Read(%+v) returned an invalid partition: %v", req, err)
		}
		if req.NowInSec != 0 && res.NowInSec != req.NowInSec {
			t.Fatalf("read at %d, result at %d", req.NowInSec, res.NowInSec)
		}
		for _, r := range res.Partition.Rows {
			if !q.Contains(r.Clustering) {
				t.Fatalf("row %q outside the query %+v", r.Clustering, q)
			}
		}
		rows := res.Partition.LiveRows(q, res.NowInSec)
		if q.Limit > 0 && rows > q.Limit || req.PageSize > 0 && rows > req.PageSize {
			t.Fatalf("%d live rows, limit %d, page size %d", rows, q.Limit, req.PageSize)
		}
		if len(state) == 0 && req.Table == tbl {
			requireSeededRows(t, req, res)
		}
	})
}

// requireSeededRows checks that res, read by req from the start of a
// partition fuzzCluster seeded, shows what the replica package answers
// from it under req's query, columns and page size at res's time.
func requireSeededRows(t *testing.T, req coordinator.Request, res coordinator.Result) {
	q := req.Query
	if req.PageSize > 0 && (q.Limit == 0 || req.PageSize < q.Limit) {
		q.Limit = req.PageSize
	}
	cmd := replica.Command{Table: req.Table, Key: req.Key, Query: q, Columns: req.Columns, NowInSec: res.NowInSec}
	want, err := cmd.Respond(fuzzPartition(req.Key))
	if err != nil {
		t.Fatalf("Respond(%+v): %v", cmd, err)
	}
	if got := res.Partition.Visible(res.NowInSec); !got.Equal(want.Partition.Visible(res.NowInSec)) {
		t.Fatalf("Read(%+v) shows %v, want %v", req, got, want.Partition.Visible(res.NowInSec))
	}
}
