//go:build linux

package checker

import (
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMemoryBoundReadsTheCgroupTree reads a cgroup tree laid out in a
// directory: a parent's limit binds its children, and an unlimited
// value counts for nothing. Each case names the process's cgroup and the
// mount of its hierarchy (a file left empty is not written) and the limit
// files below the mount.
func TestMemoryBoundReadsTheCgroupTree(t *testing.T) {
	const (
		v1Cgroup = "4:memory:/process_api/3a97\n0::/\n"
		v1Mount  = "34 30 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
		v1Limits = "sys/fs/cgroup/memory/"
		noLimit  = "9223372036854771712\n" // v1's "unlimited"
	)
	for _, tc := range []struct {
		name              string
		cgroup, mountinfo string
		limits            map[string]string
		want              []memoryLimit
	}{
		{"v2, the parent's limit least", "0::/jobs/run1\n", "30 22 0:27 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
			map[string]string{
				"sys/fs/cgroup/jobs/run1/memory.max": "max\n",
				"sys/fs/cgroup/jobs/memory.max":      "2147483648\n",
				"sys/fs/cgroup/memory.max":           "garbage\n",
			}, []memoryLimit{{2 << 30, "the cgroup's memory.max"}}},
		{"v1, own limit", v1Cgroup, v1Mount, map[string]string{
			v1Limits + "process_api/3a97/memory.limit_in_bytes": "1073741824\n",
			v1Limits + "process_api/memory.limit_in_bytes":      noLimit,
			v1Limits + "memory.limit_in_bytes":                  noLimit,
		}, []memoryLimit{{1 << 30, "the cgroup's memory.limit_in_bytes"}}},
		{"v1, unlimited", v1Cgroup, v1Mount, map[string]string{
			v1Limits + "process_api/3a97/memory.limit_in_bytes": noLimit,
		}, nil},
		{"no cgroup files", "", "", nil, nil},
	} {
		root := t.TempDir()
		files := map[string]string{"proc/self/cgroup": tc.cgroup, "proc/self/mountinfo": tc.mountinfo}
		maps.Copy(files, tc.limits)
		for name, text := range files {
			if text == "" {
				continue
			}
			p := filepath.Join(root, name)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		}
		require.Equal(t, tc.want, cgroupLimits(root), tc.name)
	}
}

func TestMemoryBoundCountsWhatIsAvailable(t *testing.T) {
	for _, tc := range []struct {
		name, meminfo, status string
		want                  memoryLimit
	}{
		{"available and held", "MemTotal: 8000 kB\nMemAvailable: 3000 kB\n", "VmRSS: 1000 kB\n",
			memoryLimit{4000 << 10, "the memory available (MemAvailable) and what vigil holds"}},
		{"an old kernel", "MemTotal: 8000 kB\nMemFree: 3000 kB\n", "VmRSS: 1000 kB\n",
			memoryLimit{8000 << 10, "the machine's memory (MemTotal)"}},
	} {
		require.Equal(t, tc.want, availableMemory(tc.meminfo, tc.status), tc.name)
	}
}
