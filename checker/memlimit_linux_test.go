//go:build linux

package checker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMemoryBoundReadsTheCgroupTree reads a cgroup tree laid out in a
// directory: a parent's limit binds its children, and an unlimited
// value counts for nothing.
func TestMemoryBoundReadsTheCgroupTree(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []memoryLimit
	}{
		{"v2, the parent's limit least", map[string]string{
			"proc/self/cgroup":                   "0::/jobs/run1\n",
			"proc/self/mountinfo":                "30 22 0:27 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
			"sys/fs/cgroup/jobs/run1/memory.max": "max\n",
			"sys/fs/cgroup/jobs/memory.max":      "2147483648\n",
			"sys/fs/cgroup/memory.max":           "garbage\n",
		}, []memoryLimit{{2 << 30, "the cgroup's memory.max"}}},
		{"v1, own limit", map[string]string{
			"proc/self/cgroup":    "4:memory:/process_api/3a97\n0::/\n",
			"proc/self/mountinfo": "34 30 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n",
			"sys/fs/cgroup/memory/process_api/3a97/memory.limit_in_bytes": "1073741824\n",
			"sys/fs/cgroup/memory/process_api/memory.limit_in_bytes":      "9223372036854771712\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                  "9223372036854771712\n",
		}, []memoryLimit{{1 << 30, "the cgroup's memory.limit_in_bytes"}}},
		{"v1, unlimited", map[string]string{
			"proc/self/cgroup":    "4:memory:/process_api/3a97\n0::/\n",
			"proc/self/mountinfo": "34 30 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n",
			"sys/fs/cgroup/memory/process_api/3a97/memory.limit_in_bytes": "9223372036854771712\n",
		}, nil},
		{"no cgroup files", map[string]string{}, nil},
	} {
		root := t.TempDir()
		for name, text := range tc.files {
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
