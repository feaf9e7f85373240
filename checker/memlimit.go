package checker

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
)

// The default memory bound of a search: a share of the least memory this
// process may hold, whichever limit sets it. A search bounded by half the
// machine's RAM alone dies in a container with less, under a ulimit, or
// beside other processes that hold the rest: the kernel's OOM killer ends
// it with nothing printed, or the Go runtime's allocator with a fatal
// error, and in neither case does it report what it explored.

// memoryShare is the share of the least limit that a search's heap may
// take by default. The rest is headroom: the heap overshoots the bound by
// what it allocates between two samples of the watch (see watchMemory), the
// collector needs room to work, and the runtime's own memory (stacks, its
// metadata, address space reserved for the heap) counts against the
// limits as well.
const memoryShare = 2

// memoryCap is the most a search takes by default, whatever the machine.
const memoryCap = 16 << 30

// memoryLimit is a limit on the memory of this process: its bytes and
// what sets it ("the cgroup's memory.max").
type memoryLimit struct {
	bytes uint64
	what  string
}

// MemoryBound is the heap a search may use when its options set no bound
// (Options.MaxMemory, RandomOptions.MaxMemory 0), and a sentence saying
// where it comes from ("half of the cgroup's memory.max, 2.0 GiB"): half
// of the least of the limits this process runs under (the memory
// cgroup's limit, RLIMIT_AS and RLIMIT_DATA, the memory available on the
// machine plus what this process holds already), at most 16 GiB.
func MemoryBound() (bytes uint64, source string) {
	return boundOf(memoryLimits())
}

// boundOf is the default bound under the limits given: a share of the
// least, at most memoryCap.
func boundOf(limits []memoryLimit) (uint64, string) {
	least, ok := leastLimit(limits)
	if !ok {
		return memoryCap, "the default where no limit on memory is known"
	}
	b := least.bytes / memoryShare
	if b >= memoryCap {
		return memoryCap, fmt.Sprintf("the most a search takes by default; the least limit on memory is %s, %s", least.what, formatBytes(least.bytes))
	}
	return b, fmt.Sprintf("half of %s, %s", least.what, formatBytes(least.bytes))
}

// leastLimit is the least of the limits that limit anything (bytes > 0).
func leastLimit(limits []memoryLimit) (memoryLimit, bool) {
	var least memoryLimit
	for _, l := range limits {
		if l.bytes > 0 && (least.bytes == 0 || l.bytes < least.bytes) {
			least = l
		}
	}
	return least, least.bytes > 0
}

// unlimited is the smallest limit taken as none: cgroup v1 writes "no
// limit" as the largest multiple of the page size below 2^63, and a
// resource limit as RLIM_INFINITY (2^64 - 1).
const unlimited = 1 << 62

// parseCgroupLimit reads a cgroup memory limit file: memory.max (v2),
// "max" or bytes, or memory.limit_in_bytes (v1), bytes. It returns 0 for
// no limit, and false for text that is neither.
func parseCgroupLimit(text string) (uint64, bool) {
	s := strings.TrimSpace(text)
	if s == "max" {
		return 0, true
	}
	b, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		// v1 may write -1 for no limit
		if i, err := strconv.ParseInt(s, 10, 64); err == nil && i < 0 {
			return 0, true
		}
		return 0, false
	}
	if b >= unlimited {
		return 0, true
	}
	return b, true
}

// parseMeminfo returns the fields of /proc/meminfo named, in bytes (its
// figures are in kB), or 0 for those it lacks.
func procFields(text string, names ...string) []uint64 {
	out := make([]uint64, len(names))
	for line := range strings.SplitSeq(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		for i, name := range names {
			if f[0] == name+":" {
				kb, err := strconv.ParseUint(f[1], 10, 64)
				if err == nil {
					out[i] = kb << 10
				}
			}
		}
	}
	return out
}

// cgroupDir is where a cgroup's files are: its directory in the
// hierarchy (hier, "" for the unified v2 one, else a v1 controller such as
// "memory"), from /proc/self/cgroup, under the mount of that hierarchy,
// from /proc/self/mountinfo. A mount shows the hierarchy from its root
// (the fourth field), which in a cgroup namespace is the process's own
// cgroup: the path is taken relative to it. It returns the directory and
// the mount point, or "" if the process is in no such cgroup or the
// hierarchy is not mounted.
func cgroupDir(cgroupFile, mountinfo, hier string) (dir, mount string) {
	var group string
	found := false
	for line := range strings.SplitSeq(cgroupFile, "\n") {
		// hierarchy-ID:controller-list:cgroup-path
		f := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(f) != 3 {
			continue
		}
		if hier == "" && f[0] == "0" && f[1] == "" || hier != "" && slices.Contains(strings.Split(f[1], ","), hier) {
			group, found = f[2], true
			break
		}
	}
	if !found {
		return "", ""
	}
	for line := range strings.SplitSeq(mountinfo, "\n") {
		// id parent major:minor root mount-point options [optional...] - fstype source super-options
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(g) < 3 {
			continue
		}
		root, point := f[3], f[4]
		switch {
		case hier == "" && g[0] == "cgroup2":
		case hier != "" && g[0] == "cgroup" && slices.Contains(strings.Split(g[2], ","), hier):
		default:
			continue
		}
		rel, ok := strings.CutPrefix(group, root)
		if !ok || rel != "" && root != "/" && !strings.HasPrefix(rel, "/") {
			continue // the mount shows another part of the hierarchy
		}
		return path.Join(point, rel), point
	}
	return "", ""
}

// formatBytes writes b in GiB, or MiB below one GiB.
func formatBytes(b uint64) string {
	if b >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
}
