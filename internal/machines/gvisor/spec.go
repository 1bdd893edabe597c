package gvisor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	specs "github.com/opencontainers/runtime-spec/specs-go"

	"github.com/agentsvc/agentsvc/internal/machines"
)

// initScript is the sandbox's PID 1. bash reaps every child it is given
// (orphans of commands run with runsc exec are reparented to it), so zombies
// do not pile up against the pids limit the way they would under a bare
// `sleep infinity`. The sleep keeps bash waiting without spinning.
const initScript = `trap 'exit 0' TERM; while :; do sleep 86400 & wait $!; done`

// defaultPIDs bounds tasks in a sandbox when the spec sets no limit, so a
// fork bomb always stays inside.
const defaultPIDs = 1024

// cpuPeriod is the CFS period for the CPU quota (100 ms, the kernel default).
const cpuPeriod = 100000

// bundleSpec is the OCI runtime spec of a sandbox. It must be identical,
// apart from fields runsc lets change (hostname, env, cgroups path, resources,
// root path, namespace paths), between the Create of a sandbox and every
// restore of its snapshots, including forks into other sandboxes.
func bundleSpec(netnsPath, cgroupParent, image, id string, env []string, lim machines.Limits) *specs.Spec {
	pids := lim.PIDs
	if pids <= 0 {
		pids = defaultPIDs
	}
	res := &specs.LinuxResources{Pids: &specs.LinuxPids{Limit: pids}}
	if lim.MemoryBytes > 0 {
		m := lim.MemoryBytes
		res.Memory = &specs.LinuxMemory{Limit: &m}
	}
	if lim.CPUs > 0 {
		quota := int64(lim.CPUs * cpuPeriod)
		period := uint64(cpuPeriod)
		res.CPU = &specs.LinuxCPU{Quota: &quota, Period: &period}
	}
	return &specs.Spec{
		Version: specs.Version,
		Process: &specs.Process{
			User: specs.User{UID: 0, GID: 0},
			Args: []string{"/bin/bash", "-c", initScript},
			Env:  append(baseEnv(), env...),
			Cwd:  "/root",
			Capabilities: &specs.LinuxCapabilities{
				Bounding:  defaultCaps,
				Effective: defaultCaps,
				Permitted: defaultCaps,
			},
			Rlimits: []specs.POSIXRlimit{{Type: "RLIMIT_NOFILE", Hard: 1 << 20, Soft: 1 << 20}},
		},
		Root:     &specs.Root{Path: image, Readonly: false},
		Hostname: id,
		Mounts: []specs.Mount{
			{Destination: "/proc", Type: "proc", Source: "proc"},
			{Destination: "/dev", Type: "tmpfs", Source: "tmpfs", Options: []string{"nosuid", "strictatime", "mode=755", "size=65536k"}},
			{Destination: "/dev/pts", Type: "devpts", Source: "devpts", Options: []string{"nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620"}},
			{Destination: "/dev/shm", Type: "tmpfs", Source: "shm", Options: []string{"nosuid", "noexec", "nodev", "mode=1777", "size=65536k"}},
			{Destination: "/sys", Type: "sysfs", Source: "sysfs", Options: []string{"nosuid", "noexec", "nodev", "ro"}},
			{Destination: "/tmp", Type: "tmpfs", Source: "tmpfs", Options: []string{"nosuid", "nodev", "mode=1777"}},
		},
		Linux: &specs.Linux{
			CgroupsPath: cgroupParent + "/" + id,
			Resources:   res,
			Namespaces: []specs.LinuxNamespace{
				{Type: specs.PIDNamespace},
				{Type: specs.IPCNamespace},
				{Type: specs.UTSNamespace},
				{Type: specs.MountNamespace},
				{Type: specs.NetworkNamespace, Path: netnsPath},
			},
		},
	}
}

// defaultCaps is what a root user in a container usually gets: enough to run
// package managers and servers, nothing that reaches past gVisor's kernel.
var defaultCaps = []string{
	"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER", "CAP_MKNOD",
	"CAP_NET_RAW", "CAP_SETGID", "CAP_SETUID", "CAP_SETFCAP", "CAP_SETPCAP",
	"CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE",
}

func baseEnv() []string {
	return []string{
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=/root",
		"LANG=C.UTF-8",
		"TERM=xterm",
	}
}

func writeBundle(dir string, s *specs.Spec) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("gvisor: encoding spec: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("gvisor: %w", err)
	}
	return writeFileAtomic(filepath.Join(dir, "config.json"), data, 0o600)
}

// writeFileAtomic replaces path so that readers never see a partial file,
// even when the process dies mid-write.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, mode); err != nil {
		return fmt.Errorf("gvisor: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("gvisor: %w", err)
	}
	return nil
}
