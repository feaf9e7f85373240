package checker

import (
	"context"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// The bounds of a search: workers, time and memory.

// workerCount is n, or one worker per core when n <= 0.
func workerCount(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// timeLeft is what is left of a time bound d (0: none) once spent is
// gone, and whether anything is.
func timeLeft(d, spent time.Duration) (time.Duration, bool) {
	if d <= 0 {
		return 0, true
	}
	return d - spent, d > spent
}

// stopCause names what stopped a search whose context is done: CutCanceled
// when the caller's own context outer is (a signal, a caller that gave
// up), else the search's time bound.
func stopCause(outer context.Context) Cut {
	if outer.Err() != nil {
		return CutCanceled
	}
	return CutTime
}

// withTime bounds ctx by d, when d > 0.
func withTime(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d > 0 {
		return context.WithTimeout(ctx, d)
	}
	return context.WithCancel(ctx)
}

// watchMemory samples the heap ten times a second and cancels the returned
// context, setting the flag, once it holds more than limit bytes (default:
// MemoryBound). It returns too the bound and where it comes from, for a
// search it cuts to say (Result.MemoryBound).
// Meanwhile the limit is the runtime's soft memory limit too, unless one
// is set lower: the collector then works harder as the heap nears the
// limit, rather than letting garbage double it, so that what trips the
// watch is live data.
func watchMemory(ctx context.Context, limit uint64) (context.Context, *atomic.Bool, context.CancelFunc, string) {
	source := "as the options ask"
	if limit == 0 {
		limit, source = MemoryBound()
	}
	bound := formatBytes(limit) + ", " + source
	restore := func() {}
	if prev := debug.SetMemoryLimit(-1); uint64(prev) > limit {
		debug.SetMemoryLimit(int64(limit))
		restore = func() { debug.SetMemoryLimit(prev) }
	}
	ctx, cancel := context.WithCancel(ctx)
	var over atomic.Bool
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				metrics.Read(sample)
				if sample[0].Value.Uint64() > limit {
					over.Store(true)
					cancel()
					return
				}
			}
		}
	}()
	return ctx, &over, func() { cancel(); restore() }, bound
}
