package checker

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMemoryBoundParsesCgroupLimits(t *testing.T) {
	for _, tc := range []struct {
		text  string
		bytes uint64
		ok    bool
	}{
		{"max\n", 0, true},
		{"2147483648\n", 2 << 30, true},
		{"9223372036854771712\n", 0, true}, // v1's "no limit"
		{"-1", 0, true},
		{"", 0, false},
		{"lots", 0, false},
	} {
		b, ok := parseCgroupLimit(tc.text)
		require.Equal(t, tc.ok, ok, "%q", tc.text)
		require.Equal(t, tc.bytes, b, "%q", tc.text)
	}
}

func TestMemoryBoundParsesProcFields(t *testing.T) {
	meminfo := "MemTotal:       24683620 kB\nMemFree:        21974788 kB\nMemAvailable:   22562240 kB\n"
	status := "Name:\tvigil\nVmSize:\t 1300000 kB\nVmRSS:\t   20000 kB\n"
	for _, tc := range []struct {
		text  string
		names []string
		want  []uint64
	}{
		{meminfo, []string{"MemAvailable", "MemTotal"}, []uint64{22562240 << 10, 24683620 << 10}},
		{meminfo, []string{"SwapTotal"}, []uint64{0}},
		{status, []string{"VmSize", "VmRSS"}, []uint64{1300000 << 10, 20000 << 10}},
		{"", []string{"VmRSS"}, []uint64{0}},
		{"VmRSS: many kB\n", []string{"VmRSS"}, []uint64{0}},
	} {
		require.Equal(t, tc.want, procFields(tc.text, tc.names...), "%q", tc.text)
	}
}

func TestMemoryBoundFindsTheCgroupDirectory(t *testing.T) {
	v1 := "4:memory:/process_api/3a97\n3:cpuset:/\n0::/\n"
	v2 := "0::/user.slice/session-1.scope\n"
	mountV1 := "34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n" +
		"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	mountV2 := "30 22 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
	// in a cgroup namespace the mount's root is the process's own cgroup
	mountNS := "30 22 0:27 /user.slice/session-1.scope /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
	for _, tc := range []struct {
		name, cgroup, mountinfo, hier string
		dir, mount                    string
	}{
		{"v1 memory controller", v1, mountV1, "memory", "/sys/fs/cgroup/memory/process_api/3a97", "/sys/fs/cgroup/memory"},
		{"v2 under a hybrid mount", v1, mountV1, "", "/sys/fs/cgroup/unified", "/sys/fs/cgroup/unified"},
		{"v2", v2, mountV2, "", "/sys/fs/cgroup/user.slice/session-1.scope", "/sys/fs/cgroup"},
		{"v2 in a namespace", v2, mountNS, "", "/sys/fs/cgroup", "/sys/fs/cgroup"},
		{"no v1 memory controller", v2, mountV2, "memory", "", ""},
		{"hierarchy not mounted", v1, "", "memory", "", ""},
	} {
		dir, mount := cgroupDir(tc.cgroup, tc.mountinfo, tc.hier)
		require.Equal(t, tc.dir, dir, tc.name)
		require.Equal(t, tc.mount, mount, tc.name)
	}
}

func TestMemoryBoundIsHalfTheLeastLimit(t *testing.T) {
	cg := memoryLimit{2 << 30, "the cgroup's memory.max"}
	as := memoryLimit{6 << 30, "RLIMIT_AS"}
	avail := memoryLimit{22 << 30, "the memory available"}
	big := memoryLimit{100 << 30, "the memory available"}
	for _, tc := range []struct {
		name   string
		limits []memoryLimit
		bytes  uint64
		source string
	}{
		{"cgroup least", []memoryLimit{avail, cg, as}, 1 << 30, "half of the cgroup's memory.max, 2.0 GiB"},
		{"rlimit least", []memoryLimit{avail, as}, 3 << 30, "half of RLIMIT_AS, 6.0 GiB"},
		{"a zero limits nothing", []memoryLimit{{0, "none"}, as}, 3 << 30, "half of RLIMIT_AS, 6.0 GiB"},
		{"capped", []memoryLimit{big}, 16 << 30, "the most a search takes by default; the least limit on memory is the memory available, 100.0 GiB"},
		{"none known", nil, 16 << 30, "the default where no limit on memory is known"},
	} {
		b, source := boundOf(tc.limits)
		require.Equal(t, tc.bytes, b, tc.name)
		require.Equal(t, tc.source, source, tc.name)
	}
}
