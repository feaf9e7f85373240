//go:build linux

package checker

import (
	"os"
	"path/filepath"
	"syscall"
)

// memoryLimits are the limits on this process's memory that Linux shows
// it: its memory cgroup's (v2, then v1), RLIMIT_AS and RLIMIT_DATA, and
// what the machine has available.
func memoryLimits() []memoryLimit {
	limits := cgroupLimits("/")
	limits = append(limits, resourceLimits(readFile("/proc/self/status"))...)
	return append(limits, availableMemory(readFile("/proc/meminfo"), readFile("/proc/self/status")))
}

func readFile(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	return string(b)
}

// cgroupLimits are the memory limits of this process's cgroup, under the
// file system root root: the least of its own and its ancestors' up to
// the mount's root (a parent's limit binds its children), in the unified
// hierarchy (memory.max) and in the v1 memory controller's
// (memory.limit_in_bytes). Unlimited values count for nothing.
func cgroupLimits(root string) []memoryLimit {
	cg, mi := readFile(filepath.Join(root, "proc/self/cgroup")), readFile(filepath.Join(root, "proc/self/mountinfo"))
	var out []memoryLimit
	for _, h := range []struct{ hier, file string }{{"", "memory.max"}, {"memory", "memory.limit_in_bytes"}} {
		dir, mount := cgroupDir(cg, mi, h.hier)
		if dir == "" {
			continue
		}
		least := memoryLimit{what: "the cgroup's " + h.file}
		for d := dir; ; d = filepath.Dir(d) {
			if b, ok := parseCgroupLimit(readFile(filepath.Join(root, d, h.file))); ok && b > 0 && (least.bytes == 0 || b < least.bytes) {
				least.bytes = b
			}
			if len(d) <= len(mount) || d == "/" {
				break
			}
		}
		if least.bytes > 0 {
			out = append(out, least)
		}
	}
	return out
}

// resourceLimits are RLIMIT_AS, less the address space this process
// holds reserved but not in use (status, /proc/self/status: VmSize less
// VmRSS; the Go runtime reserves address space ahead of its heap), and
// RLIMIT_DATA.
func resourceLimits(status string) []memoryLimit {
	var out []memoryLimit
	var as, data syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &as) == nil && as.Cur < unlimited {
		vm := procFields(status, "VmSize", "VmRSS")
		b := as.Cur
		if reserved := vm[0] - min(vm[0], vm[1]); reserved < b {
			b -= reserved
		}
		out = append(out, memoryLimit{b, "RLIMIT_AS (ulimit -v) less the address space reserved"})
	}
	if syscall.Getrlimit(syscall.RLIMIT_DATA, &data) == nil && data.Cur < unlimited {
		out = append(out, memoryLimit{data.Cur, "RLIMIT_DATA (ulimit -d)"})
	}
	return out
}

// availableMemory is what the machine has available (MemAvailable in
// /proc/meminfo: free memory and what the kernel can reclaim, which
// leaves out what other processes hold) plus what this process holds
// already (VmRSS), or the machine's memory (MemTotal) on a kernel that
// does not say what is available.
func availableMemory(meminfo, status string) memoryLimit {
	f := procFields(meminfo, "MemAvailable", "MemTotal")
	if f[0] == 0 {
		return memoryLimit{f[1], "the machine's memory (MemTotal)"}
	}
	return memoryLimit{f[0] + procFields(status, "VmRSS")[0], "the memory available (MemAvailable) and what vigil holds"}
}
