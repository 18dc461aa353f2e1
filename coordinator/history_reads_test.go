package coordinator_test

import (
	"context"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

const historyTimeout = 50 * time.Millisecond

// timed runs one read and fails the history if it outlived its deadline
// (a wedged read) or failed with an error that is not a typed one.
func (h *history) timed(what string, read func() error) bool {
	start := time.Now()
	err := read()
	if took := time.Since(start); took > historyTimeout {
		h.fatalf("%s took %v, past its %v timeout", what, took, historyTimeout)
	}
	if err != nil && !typed(err) {
		h.fatalf("%s failed with an untyped error: %v", what, err)
	}
	if err != nil {
		h.logf("%s failed: %v", what, err)
	}
	return err == nil
}

// read reads one key whole.
func (h *history) read(req coordinator.Request) {
	req.Key = rapid.SampledFrom(h.keys).Draw(h.t, "read key")
	var res coordinator.Result
	if h.timed("read", func() (err error) { res, err = h.c.Read(context.Background(), req); return err }) {
		h.logf("read %s -> %v", req.Key, res.Partition)
		h.check("read", req.Key, res.Partition, res.NowInSec, h.monotonic)
	}
}

// paged reads one key in pages of random sizes, forward or reversed, and
// checks the pages together as one read. At ALL it also reads the key
// whole: nothing was written meanwhile, so both must show the same.
func (h *history) paged(req coordinator.Request) {
	req.Key = rapid.SampledFrom(h.keys).Draw(h.t, "paged key")
	req.Query.Reversed = rapid.Bool().Draw(h.t, "reversed")
	// Draws do not depend on how reads end, which the scheduler may decide
	// for answers at one virtual instant, so that rapid can replay them.
	req.PageSize = rapid.IntRange(1, 3).Draw(h.t, "page size")
	pages := replica.Partition{Key: req.Key}
	for n := 0; ; n++ {
		if n > len(historyClusterings)+1 {
			h.fatalf("paging of %s does not end", req.Key)
		}
		var res coordinator.Result
		if !h.timed("page", func() (err error) { res, err = h.c.Read(context.Background(), req); return err }) {
			return
		}
		if live := res.Partition.LiveRows(replica.Query{}, req.NowInSec); live > req.PageSize {
			h.fatalf("a page of size %d returned %d rows", req.PageSize, live)
		}
		m, err := repair.Merge(pages, res.Partition)
		must(h, err)
		pages = m
		if res.PagingState == nil {
			break
		}
		req.PagingState = res.PagingState
	}
	h.logf("paged %s -> %v", req.Key, pages)
	h.check("paged read", req.Key, pages, req.NowInSec, h.monotonic)
	if h.level != consistency.All {
		return
	}
	req.PageSize, req.PagingState = 0, nil
	var whole coordinator.Result
	if h.timed("whole read", func() (err error) { whole, err = h.c.Read(context.Background(), req); return err }) {
		if got, want := pages.Visible(req.NowInSec), whole.Visible(); !got.Equal(want) {
			h.fatalf("pages of %s show\n  %v\nthe whole read\n  %v", req.Key, got, want)
		}
	}
}

// many reads every key with ReadMany.
func (h *history) many(req coordinator.Request) {
	start := time.Now()
	res, err := h.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: h.keys,
		Level: req.Level, NowInSec: req.NowInSec})
	if took := time.Since(start); took > historyTimeout {
		h.fatalf("ReadMany took %v, past its %v timeout", took, historyTimeout)
	}
	if err != nil {
		h.fatalf("ReadMany: %v", err)
	}
	for _, kr := range res {
		if kr.Err != nil {
			if !typed(kr.Err) {
				h.fatalf("ReadMany of %s failed with an untyped error: %v", kr.Key, kr.Err)
			}
			continue
		}
		h.logf("ReadMany %s -> %v", kr.Key, kr.Result.Partition)
		h.check("ReadMany", kr.Key, kr.Result.Partition, kr.Result.NowInSec, h.monotonic)
	}
}
