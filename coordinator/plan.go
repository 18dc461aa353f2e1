package coordinator

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// candidate is a live replica a read may contact.
type candidate struct {
	r     replica.Replica
	ep    replica.Endpoint
	score *score // the snitch's view of it
	dc    int    // EACH_QUORUM: its datacenter's index in plan.dcs
}

// plan is the pure outcome of planning a read: whom to contact first, and
// in which order to hedge. It is computed before anything is sent.
type plan struct {
	level    consistency.Level
	repl     consistency.Replication
	blockFor int
	// dcs is EACH_QUORUM's requirement per datacenter, which every phase
	// of the read counts answers against; nil for other levels.
	dcs []dcNeed
	// digestVersion is the newest digest encoding every candidate supports:
	// during a rolling upgrade, old and new replicas digest alike.
	digestVersion byte
	// order holds the live candidates: the first contacts are the initial
	// contacts, the rest are hedge candidates, closest first, but for the
	// tails, which planning left in the locator's order (see makePlan).
	order    []candidate
	contacts int
	tails    [2]orderSpan
	// local is how many of order's first candidates are in the local
	// datacenter; remoteProbe, that the read may still claim the probe of
	// the rest, which planning ranked without (see claimRemoteProbe).
	local       int
	remoteProbe bool
	// probe is the score whose probe planning claimed, at the plan's now,
	// or nil: a read that then sends nothing releases it (see unclaim).
	// probeAt is when it was claimed (a snitchClock.Nanos reading), until
	// the probe is sent, which then carries it (see call.probeAt).
	probe   *score
	probeAt int64
}

// orderSpan is the candidates order[from:to].
type orderSpan struct{ from, to int }

// planInput is what planning needs besides the locator's answer.
type planInput struct {
	level   consistency.Level
	repl    consistency.Replication
	localDC string
	live    Liveness // nil: every replica is alive
	snitch  *snitch  // orders each proximity group
	now     time.Time
	// noProbe: the read will send nothing (its context has ended), so it
	// must claim no replica's probe, which it would not try.
	noProbe bool
	// digestFirst: the table's strategy is DigestFirst, whose reads at
	// blockFor above one ask every candidate.
	digestFirst bool
}

// makePlan filters, orders and splits the replicas of a read. It fails with
// *consistency.UnavailableError when too few are alive for the level.
// Replica i's endpoint is eps[i].
func makePlan(in planInput, reps []replica.Replica, eps []replica.Endpoint, buf []candidate) (plan, error) {
	p := plan{level: in.level, repl: in.repl, blockFor: in.level.BlockFor(in.repl, in.localDC)}
	dcLocal := in.level.IsDatacenterLocal()
	for i, r := range reps {
		ep := &eps[i]
		// The datacenter first: a DC-local read does not ask about replicas it can never contact.
		if (!dcLocal || ep.Datacenter == in.localDC) && (in.live == nil || in.live.IsAlive(*ep)) {
			buf = append(buf, candidate{r: r, ep: *ep, score: in.snitch.entry(ep)})
		}
	}
	if err := assureLive(in, buf, p.blockFor); err != nil {
		return plan{level: p.level, repl: p.repl, blockFor: p.blockFor}, explainLocal(in, eps, err) // blockFor for the trace
	}
	now := snitchClock.Nanos(in.now)
	local := partitionLocalFirst(buf, in.localDC, in.snitch)
	if local < len(buf) && !dcLocal && in.level != consistency.EachQuorum {
		local = in.snitch.missedOut(buf[:local], now)
	}
	want := len(buf) // EACH_QUORUM contacts a quorum of each datacenter: rank all
	if in.level != consistency.EachQuorum {
		want = p.blockFor + 2 // the contacts, ALWAYS's extra request and a hedge
	}
	probed := in.snitch.rank(buf[:local], now, want, !in.noProbe)
	if probed {
		p.probe, p.probeAt = buf[0].score, now // ranked first
	}
	// The remote group holds contacts only when the local one cannot meet
	// blockFor, or at EACH_QUORUM: a read that asks none of it must not
	// claim a probe there, which it would not try. Its first speculative
	// request there may claim it then (see claimRemoteProbe), or a
	// replica there that missed would never be tried again by reads that
	// reach the group only by hedges, or ALWAYS's extra request.
	remoteAsked := p.blockFor > local || (in.level == consistency.EachQuorum && !in.repl.IsSimple())
	mayClaim := !probed && !in.noProbe && !in.snitch.cfg.Disabled
	if in.snitch.rank(buf[local:], now, want-local, remoteAsked && mayClaim) {
		p.probe, p.probeAt = buf[local].score, now
	}
	p.order, p.local = buf, local
	p.remoteProbe = !remoteAsked && mayClaim && local < len(buf) && !(in.digestFirst && p.blockFor > 1)
	if !in.snitch.cfg.Disabled {
		// What each group has past the want ranked: a hedge that seeks
		// another rack may reach it, and ranks it then (see rankTail).
		remoteFrom := local + min(max(want-local, 0), len(buf)-local)
		p.tails = [2]orderSpan{{min(want, local), local}, {remoteFrom, len(buf)}}
	}
	p.contacts = p.blockFor
	var err error
	if p.digestVersion, err = digestVersion(buf); err != nil {
		p.probe.unclaim(now, in.snitch.cfg.ResetInterval) // the read sends nothing
		return plan{level: p.level, repl: p.repl, blockFor: p.blockFor}, err
	}
	if in.level == consistency.EachQuorum && !in.repl.IsSimple() {
		p.dcs = eachQuorumNeeds(in.repl, buf)
		p.contacts = eachQuorumContacts(buf, p.dcs)
	}
	return p, nil
}

// digestVersion is the newest digest version every candidate supports. A
// replica whose MaxDigestVersion panics fails the read, as one whose
// Endpoint does.
func digestVersion(cs []candidate) (v byte, err error) {
	i := 0
	defer func() {
		if p := recover(); p != nil {
			err = replicaPanicked(i, cs[i].r, "MaxDigestVersion", p)
		}
	}()
	v = digest.Latest
	for ; i < len(cs); i++ {
		// replica.DigestVersionFor, but for its check of a nil pointer,
		// a reflection a candidate each read: checkPlacement refused them.
		if dv, ok := cs[i].r.(replica.DigestVersioner); ok {
			v = min(v, max(dv.MaxDigestVersion(), digest.V1))
		}
	}
	return v, nil
}

// dcNeed is how many answers one datacenter must give at EACH_QUORUM.
type dcNeed struct {
	name string
	need int
}

// eachQuorumNeeds lists EACH_QUORUM's requirement per datacenter, sorted
// by name, and tags each candidate with its datacenter's index (-1 for a
// datacenter with no requirement).
func eachQuorumNeeds(repl consistency.Replication, cs []candidate) []dcNeed {
	m := consistency.EachQuorumFor(repl)
	dcs := make([]dcNeed, 0, len(m))
	for name, n := range m {
		dcs = append(dcs, dcNeed{name, n})
	}
	slices.SortFunc(dcs, func(a, b dcNeed) int { return strings.Compare(a.name, b.name) })
	for i := range cs {
		cs[i].dc = slices.IndexFunc(dcs, func(d dcNeed) bool { return d.name == cs[i].ep.Datacenter })
	}
	return dcs
}

// assureLive runs the availability check over the live candidates. The
// candidates are already filtered to the local datacenter for DC-local
// levels, so only EACH_QUORUM needs the per-datacenter count when there
// are enough of them.
func assureLive(in planInput, live []candidate, blockFor int) error {
	if in.level != consistency.EachQuorum && len(live) >= blockFor {
		return nil
	}
	byDC := make(map[string]int, 4)
	for _, c := range live {
		byDC[c.ep.Datacenter]++
	}
	return consistency.AssureSufficientLive(in.level, in.repl, in.localDC, byDC)
}

// explainLocal adds to a DC-local level's unavailability the likelier
// cause when no replica at all is in the local datacenter: the setting is
// missing, or names a datacenter that holds none of the partition.
func explainLocal(in planInput, eps []replica.Endpoint, err error) error {
	if !in.level.IsDatacenterLocal() || slices.ContainsFunc(eps, func(ep replica.Endpoint) bool { return ep.Datacenter == in.localDC }) {
		return err
	}
	if in.localDC == "" {
		return fmt.Errorf("%w: %v reads only the coordinator's datacenter, and Config.LocalDatacenter is not set", ErrInvalidRequest, in.level)
	}
	var dcs []string
	for _, ep := range eps {
		dc := ep.Datacenter
		if dc == "" {
			dc = "none (an empty Endpoint.Datacenter)" // else the list read as nothing
		}
		if !slices.Contains(dcs, dc) {
			dcs = append(dcs, dc)
		}
	}
	slices.Sort(dcs)
	return fmt.Errorf("%w: Config.LocalDatacenter %q holds no replica of the partition; its replicas are in %s",
		err, in.localDC, strings.Join(dcs, ", "))
}

// partitionLocalFirst moves the candidates of the local datacenter to the
// front, keeping the relative order of both groups, and returns how many
// are local. One at its backlog cap stays in the other group, which its
// ranking puts it last in (unless the snitch is disabled): at a level the
// remote group may serve, a local replica a request to which would be
// refused unsent must not be a contact ahead of a remote one (two at their
// cap failed every QUORUM read over 3+3 while remote replicas sat idle).
func partitionLocalFirst(cs []candidate, localDC string, s *snitch) int {
	n := 0
	for i := range cs {
		if cs[i].ep.Datacenter != localDC || s.ranksLast(cs[i].score) {
			continue
		}
		if i > n { // a candidate is 80 bytes: move only what must move
			c := cs[i]
			copy(cs[n+1:i+1], cs[n:i])
			cs[n] = c
		}
		n++
	}
	return n
}

// missedOut moves the local candidates cs that missed since their last
// answer, and are not due a probe, behind the others, into the remote
// group, keeping the order of both, and returns how many are left: at a
// level the remote group may serve, one that missed ranks behind every
// replica that did not, remote ones too, as one at its cap does. Ranked
// only within the local group, a local replica that failed at once, or
// hung, was a contact of every QUORUM read over 3+3, which failed once the
// hedge budget was spent, and every read failed with two such, while
// remote replicas sat idle. One due a probe stays, for the read that
// claims it to ask it first (see expire): in the remote group, a read at
// ONE would not, and the replica was never asked again. Disabled keeps
// the locator's order.
func (s *snitch) missedOut(cs []candidate, now int64) int {
	if s.cfg.Disabled {
		return len(cs)
	}
	n := 0
	for i := range cs {
		if sc := cs[i].score; sc.missing() > 0 && !sc.probeDue(now, s.cfg.ResetInterval) {
			continue
		}
		if i > n {
			c := cs[i]
			copy(cs[n+1:i+1], cs[n:i])
			cs[n] = c
		}
		n++
	}
	return n
}

// eachQuorumContacts reorders cs so that the first contacts hold the
// closest quorum of every datacenter, in proximity order, and returns how
// many that is.
func eachQuorumContacts(cs []candidate, dcs []dcNeed) int {
	need := make([]int, len(dcs))
	for i, d := range dcs {
		need[i] = d.need
	}
	n := 0
	for i := range cs {
		if dc := cs[i].dc; dc >= 0 && need[dc] > 0 {
			need[dc]--
			c := cs[i]
			copy(cs[n+1:i+1], cs[n:i])
			cs[n] = c
			n++
		}
	}
	return n
}
