package checker

import (
	"fmt"
	"runtime"
	"time"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/properties"
)

// The options a search can take, and what it makes before it explores,
// checked before it is made: a search that cannot fit is refused with a
// sentence that says what to change, rather than dying of its first
// allocation.

// MaxWorkers is the most workers a search takes: four per core the Go
// runtime runs on (GOMAXPROCS), and at least 8. More only wait for a core,
// each holding buffers of its own.
func MaxWorkers() int { return max(8, 4*runtime.GOMAXPROCS(0)) }

// Validate reports the first option no exhaustive search can take:
//   - MaxDepth, MaxStates, Time or Window negative;
//   - Workers negative, or above MaxWorkers.
//
// MaxMemory is unsigned; CheckExhaustiveFits checks it against the
// memory this process may hold. Exhaustive calls Validate first.
func (opt Options) Validate() error {
	if err := notNegative(field{"MaxDepth", int64(opt.MaxDepth)}, field{"MaxStates", opt.MaxStates}, field{"Window", int64(opt.Window)}); err != nil {
		return err
	}
	if opt.Time < 0 {
		return fmt.Errorf("the time bound must not be negative, not %v", opt.Time)
	}
	return validWorkers(opt.Workers)
}

// Validate reports the first option no random search can take:
//   - Walks, MaxDepth, Time or ShrinkTime negative;
//   - Workers negative, or above MaxWorkers;
//   - a Shard whose Count is negative, or whose Index is not from 0 to
//     Count-1 when Count is 1 or more.
//
// MaxMemory is unsigned; CheckRandomFits checks it against the memory
// this process may hold. Random calls Validate first.
func (opt RandomOptions) Validate() error {
	if err := notNegative(field{"Walks", int64(opt.Walks)}, field{"MaxDepth", int64(opt.MaxDepth)}, field{"HotBound", int64(opt.HotBound)}); err != nil {
		return err
	}
	if opt.Time < 0 || opt.ShrinkTime < 0 {
		return fmt.Errorf("the time bounds must not be negative, not %v and %v (Time, ShrinkTime)", opt.Time, opt.ShrinkTime)
	}
	if s := opt.Shard; s.Count < 0 || s.Count >= 1 && (s.Index < 0 || s.Index >= s.Count) {
		return fmt.Errorf("shard %d/%d: want the shard I from 0 to K-1 of K", s.Index, s.Count)
	}
	return validWorkers(opt.Workers)
}

// field is an option's name and value.
type field struct {
	name  string
	value int64
}

func notNegative(fields ...field) error {
	for _, f := range fields {
		if f.value < 0 {
			return fmt.Errorf("%s must not be negative, not %d", f.name, f.value)
		}
	}
	return nil
}

func validWorkers(n int) error {
	if n < 0 || n > MaxWorkers() {
		return fmt.Errorf("workers must be from 1 to %d (four per core; 0: one per core), not %d", MaxWorkers(), n)
	}
	return nil
}

// exhaustiveWorkerBytes is the allowance for what a worker of an
// exhaustive search holds of its own: its Stepper's buffers and a world
// being expanded, the candidates of the chunk it expands, its stack.
const exhaustiveWorkerBytes = 4 << 20

// walkRecordBytes is the allowance for the record a shard keeps of each
// of its walks (WalkRecord, with its counts by kind and event).
const walkRecordBytes = 512

// CheckExhaustiveFits validates opt (see Options.Validate) and refuses an
// exhaustive search of m that cannot fit in its memory bound
// (opt.MaxMemory, or MemoryBound): a bound larger than the memory this
// process may hold, or workers whose buffers fill it. Exhaustive calls
// it first; a caller can call it to report the error its own way.
func CheckExhaustiveFits(opt Options) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	bound, source, err := memoryBound(opt.MaxMemory)
	if err != nil {
		return err
	}
	workers := workerCount(opt.Workers)
	if need := uint64(workers) * exhaustiveWorkerBytes; need > bound {
		return fmt.Errorf("%d workers need about %s for their buffers, more than the memory bound of %s, %s: use at most %d workers (or raise the memory bound, -memory)",
			workers, formatBytes(need), formatBytes(bound), source, max(1, bound/exhaustiveWorkerBytes))
	}
	return nil
}

// CheckRandomFits validates opt (see RandomOptions.Validate) and refuses a
// random search of m whose tables cannot fit in its memory bound
// (opt.MaxMemory, or MemoryBound): a bound larger than the memory this
// process may hold; the tables of its walkers, which grow with N² (see
// sim.Machine.WalkerTables), one walker per worker that has a walk to
// run; the tables of its steppers, for walks a walker does not run; the
// records a shard keeps of its walks. Random calls it first; a caller can
// call it to report the error its own way.
func CheckRandomFits(m *Machine, opt RandomOptions) error {
	return checkRandomFits(m.m, opt)
}

func checkRandomFits(m *sim.Machine, opt RandomOptions) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	bound, source, err := memoryBound(opt.MaxMemory)
	if err != nil {
		return err
	}
	opt = opt.withDefaults(m.Config().N)
	// a worker makes its tables once it has a walk: a batch holds at most
	// batchSize(4) walks
	workers := min(workerCount(opt.Workers), opt.Walks, batchSize(4))
	n := m.Config().N
	if walksLive(m, opt) {
		tables := func(n int) uint64 {
			ch, nodes := m.WalkerTables(n)
			return uint64(workers) * (ch + nodes)
		}
		if need := tables(n); need > bound {
			fit := 0
			for lo, hi := 1, n; lo <= hi; { // the largest n whose tables fit
				mid := lo + (hi-lo)/2
				if tables(mid) <= bound {
					fit, lo = mid, mid+1
				} else {
					hi = mid - 1
				}
			}
			return fmt.Errorf("n = %d needs about %s for the channel tables of %s, more than the memory bound of %s, %s; the largest n that fits is %d (or use fewer workers, -workers, or raise the memory bound, -memory)",
				n, formatBytes(need), walkers(workers), formatBytes(bound), source, fit)
		}
	} else if need := uint64(workers) * 2 * walkTables; need > bound {
		return fmt.Errorf("%d workers need about %s for their walks' tables, more than the memory bound of %s, %s: use fewer workers (-workers) or raise the memory bound (-memory)",
			workers, formatBytes(need), formatBytes(bound), source)
	}
	if opt.Shard.Count >= 1 {
		if need := uint64(opt.Walks/opt.Shard.Count+1) * walkRecordBytes; need > bound {
			return fmt.Errorf("a shard of %d walks needs about %s for their records, more than the memory bound of %s, %s: use fewer walks (-walks) or more shards",
				opt.Walks, formatBytes(need), formatBytes(bound), source)
		}
	}
	return nil
}

// walkers names the walkers of a search of that many workers.
func walkers(workers int) string {
	if workers == 1 {
		return "its random walker"
	}
	return fmt.Sprintf("its %d random walkers (one per worker)", workers)
}

// memoryBound is a search's memory bound: max, or MemoryBound when 0,
// with where it comes from. A bound above the least limit on the memory
// of this process is refused: the search would be killed, or die of an
// allocation, before its bound stopped it.
func memoryBound(max uint64) (uint64, string, error) {
	if max == 0 {
		b, source := MemoryBound()
		return b, source, nil
	}
	if least, ok := leastLimit(memoryLimits()); ok && max > least.bytes {
		return 0, "", fmt.Errorf("a memory bound of %s is more than this process may hold: %s, %s", formatBytes(max), least.what, formatBytes(least.bytes))
	}
	return max, "as the options ask", nil
}

// refused is the result of a search that did not start, for err: no
// property is judged, and the verdict is Error.
func refused(mode Mode, props []*properties.Property, err error, start time.Time) *Result {
	res := newResult(mode, props)
	res.Refused = err.Error()
	for i := range res.Properties {
		res.Properties[i].Verdict, res.Properties[i].Detail = Unknown, "not judged: the search did not start"
	}
	res.finish(start)
	res.Verdict = Error
	return res
}
