package gvisor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	specs "github.com/opencontainers/runtime-spec/specs-go"

	"github.com/agentsvc/agentsvc/internal/machines"
	"github.com/agentsvc/agentsvc/internal/machines/agent"
)

// initScript is the sandbox's PID 1 and runs every command.
//
// Commands are not run by `runsc exec` directly because gVisor kills every
// process descended from an exec session when it restores a snapshot (the
// session's caller is gone). A command an agent left running in the
// background must survive stop and resume, so the exec'd client (execClient)
// only hands a request to init over the FIFO ctl; init starts the command as
// its own child and reports the exit status back. Being bash, init also reaps
// orphans, so zombies do not pile up against the pids limit.
//
// Request files live in execDir, a small tmpfs: <f>.req (bash-quoted
// variables T timeout, D directory, C command, exports), <f>.in, <f>.out,
// <f>.err, and the FIFO <f>.done that carries the exit status. Both ends open
// <f>.done read-write so neither blocks when the other is gone (a client
// killed by a restore).
//
// Init first writes /etc/resolv.conf from its environment (a builtin, no
// process, so the first command already finds it).
//
// When the sandbox has an agent (see package agent), init then starts it in
// a restart loop (before the FIFO's mkfifo, whose process would delay it) (a user's command may kill it; it comes back within a
// second) with the token from its own environment, then drops both variables
// so that commands started through the FIFO do not inherit them. The agent
// is a child of init like the FIFO's commands, so it survives a restore.
const initScript = `d=` + execDir + `
[ "${` + resolvEnv + `+set}" ] && printf '%s' "$` + resolvEnv + `" >/etc/resolv.conf
if [ -n "$` + agentPathEnv + `" ]; then
  ( a=$` + agentPathEnv + `; unset ` + agentPathEnv + ` ` + resolvEnv + `; trap 'exit 0' TERM
    while :; do "$a" </dev/null >/dev/null 2>&1; sleep 1; done ) &
fi
unset ` + agentPathEnv + ` ` + agent.TokenEnv + ` ` + resolvEnv + `
[ -p $d/ctl ] || mkfifo $d/ctl
exec 3<>$d/ctl
trap 'exit 0' TERM
while :; do
  read -r f <&3 || continue
  case "$f" in $d/x*) ;; *) continue;; esac
  ( . "$f.req"; exec 4<>"$f.done" 3<&-
    cd "$D" 2>/dev/null || cd /root
    timeout -k 2s "$T" bash -c "$C" <"$f.in" >"$f.out" 2>"$f.err"
    echo $? >&4 ) &
done`

// execClient runs under `runsc exec` with arguments timeout, directory,
// command, has-stdin (0/1), output limit and KEY=value environment entries.
// It waits for init to be ready (right after start the FIFO may not exist
// yet), queues the request, waits for the status and prints at most limit+1
// bytes of each output so the host can tell truncation. Every external
// program costs a fork and exec in gVisor (5-10 ms), so the client uses as
// few as it can; the leftover files of a client killed half-way are removed
// when its PID is reused.
const execClient = `d=` + execDir + `
n=0; until [ -p $d/ctl ]; do n=$((n+1)); [ $n -gt 200 ] && { echo "agentsvc: sandbox init not ready" >&2; exit 125; }; sleep 0.01; done
f=$d/x$$ stdin=$4 max=$5
mkfifo "$f.done" 2>/dev/null || { rm -f "$f".*; mkfifo "$f.done"; } || exit 125
exec 4<>"$f.done"
{ printf 'T=%q D=%q C=%q\n' "$1" "$2" "$3"; shift 5; for e; do printf 'export %q\n' "$e"; done; } >"$f.req"
if [ "$stdin" = 1 ]; then cat >"$f.in"; else : >"$f.in"; fi
echo "$f" >$d/ctl
read -r st <&4
head -c "$max" "$f.out"; head -c "$max" "$f.err" >&2
rm -f "$f".* >/dev/null 2>&1 &
exit "$st"`

// agentPathEnv tells init where the agent binary is inside the sandbox.
const agentPathEnv = "AGENTSVC_AGENT"

// resolvEnv carries the sandbox's resolv.conf to init.
const resolvEnv = "AGENTSVC_RESOLV"

// execDir holds exec requests inside the sandbox (a tmpfs, see bundleSpec).
const execDir = "/run/agentsvc"

// defaultPIDs bounds tasks in a sandbox when the spec sets no limit, so a
// fork bomb always stays inside.
const defaultPIDs = 1024

// cpuPeriod is the CFS period for the CPU quota (100 ms, the kernel default).
const cpuPeriod = 100000

// bundleSpec is the OCI runtime spec of a new sandbox. A restore must use
// the same spec apart from fields runsc lets change (hostname, env, cgroups
// path, resources, root path, namespace paths), so restores and forks start
// from the sandbox's saved config.json and only adapt those (adaptSpec); a
// newer agentsvc with a different initScript still restores old snapshots.
//
// initEnv is given to PID 1 only (the agent's path and token), env to PID 1
// and every command.
func bundleSpec(netnsPath, cgroupParent, image, id string, env, initEnv []string, lim machines.Limits) *specs.Spec {
	s := &specs.Spec{
		Version: specs.Version,
		Process: &specs.Process{
			User: specs.User{UID: 0, GID: 0},
			Args: []string{"/bin/bash", "-c", initScript},
			Env:  append(append(baseEnv(), env...), initEnv...),
			Cwd:  "/root",
			Capabilities: &specs.LinuxCapabilities{
				Bounding:  defaultCaps,
				Effective: defaultCaps,
				Permitted: defaultCaps,
			},
			Rlimits: []specs.POSIXRlimit{
				{Type: "RLIMIT_NOFILE", Hard: 1 << 20, Soft: 1 << 20},
				// Fixed for the sandbox's life: runsc refuses a restore
				// whose rlimits differ from the snapshot's.
				{Type: "RLIMIT_NPROC", Hard: uint64(processLimit(lim)), Soft: uint64(processLimit(lim))},
			},
		},
		Annotations: map[string]string{},
		Root:        &specs.Root{Path: image, Readonly: false},
		Hostname:    id,
		Mounts: []specs.Mount{
			{Destination: "/proc", Type: "proc", Source: "proc"},
			{Destination: "/dev", Type: "tmpfs", Source: "tmpfs", Options: []string{"nosuid", "strictatime", "mode=755", "size=65536k"}},
			{Destination: "/dev/pts", Type: "devpts", Source: "devpts", Options: []string{"nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620"}},
			{Destination: "/dev/shm", Type: "tmpfs", Source: "shm", Options: []string{"nosuid", "noexec", "nodev", "mode=1777", "size=65536k"}},
			{Destination: "/sys", Type: "sysfs", Source: "sysfs", Options: []string{"nosuid", "noexec", "nodev", "ro"}},
			{Destination: "/tmp", Type: "tmpfs", Source: "tmpfs", Options: []string{"nosuid", "nodev", "mode=1777"}},
			// Command output waits here until the client reads it; the size
			// bounds what a runaway command can write before its output is
			// cut (it then sees ENOSPC).
			{Destination: execDir, Type: "tmpfs", Source: "tmpfs", Options: []string{"nosuid", "nodev", "mode=700", "size=128m"}},
		},
		Linux: &specs.Linux{
			Namespaces: []specs.LinuxNamespace{
				{Type: specs.PIDNamespace},
				{Type: specs.IPCNamespace},
				{Type: specs.UTSNamespace},
				{Type: specs.MountNamespace},
				{Type: specs.NetworkNamespace},
			},
		},
	}
	adaptSpec(s, netnsPath, cgroupParent, image, id, lim)
	return s
}

// adaptSpec sets the fields of s that differ per sandbox and per start.
func adaptSpec(s *specs.Spec, netnsPath, cgroupParent, image, id string, lim machines.Limits) {
	s.Root.Path = image
	s.Hostname = id
	s.Linux.CgroupsPath = cgroupParent + "/" + id
	s.Linux.Resources = resources(lim)
	for i, ns := range s.Linux.Namespaces {
		if ns.Type == specs.NetworkNamespace {
			s.Linux.Namespaces[i].Path = netnsPath
		}
	}
}

// resources maps Limits to cgroup settings. The pids limit is not enforced
// by this cgroup for the sandbox's processes: with gVisor the host only sees
// the sentry's threads and stub processes, and a host pids limit that the
// sandbox's processes reach kills the whole sandbox instead of failing the
// fork inside it. So the host limit is generous (it only bounds the
// sentry), and the tasks inside are limited with RLIMIT_NPROC, which
// gVisor's kernel enforces (see processLimit).
func resources(lim machines.Limits) *specs.LinuxResources {
	res := &specs.LinuxResources{Pids: &specs.LinuxPids{Limit: 4*processLimit(lim) + 512}}
	if lim.MemoryBytes > 0 {
		m := lim.MemoryBytes
		res.Memory = &specs.LinuxMemory{Limit: &m}
	}
	if lim.CPUs > 0 {
		quota := int64(lim.CPUs * cpuPeriod)
		period := uint64(cpuPeriod)
		res.CPU = &specs.LinuxCPU{Quota: &quota, Period: &period}
	}
	return res
}

func processLimit(lim machines.Limits) int64 {
	if lim.PIDs > 0 {
		return lim.PIDs
	}
	return defaultPIDs
}

func readBundle(dir string) (*specs.Spec, error) {
	data, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, fmt.Errorf("gvisor: reading spec: %w", err)
	}
	var s specs.Spec
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("gvisor: reading spec: %w", err)
	}
	if s.Root == nil || s.Linux == nil || s.Process == nil {
		return nil, fmt.Errorf("gvisor: spec in %s is incomplete", dir)
	}
	return &s, nil
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
