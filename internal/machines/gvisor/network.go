package gvisor

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// Each sandbox gets a network namespace of its own holding one end of a veth
// pair; the other end stays on the host. Addresses come from a /30 per
// sandbox carved out of Options.Subnet: slot n uses base+4n+1 on the host end
// and base+4n+2 inside. runsc (--network=sandbox) takes over the inner end
// and runs gVisor's own network stack on it, so the host kernel never sees
// the sandbox's sockets.
//
// Traffic is routed (no bridge), so every packet between a sandbox and
// anything else crosses the host's iptables:
//
//	AGENTSVC-IN-<name>  (INPUT,   -i <name>+): only replies to connections the host
//	             opened (the port proxy); nothing else reaches host services.
//	AGENTSVC-FWD-<name> (FORWARD, -i/-o <name>+): no sandbox-to-sandbox traffic, no
//	             link-local (cloud metadata) or private destinations except
//	             the host's DNS resolvers, anything else out (NAT); into a
//	             sandbox only replies.
//	AGENTSVC-NAT-<name> (nat POSTROUTING): masquerade sandbox traffic leaving the
//	             host.
//
// IPv6 is disabled on both veth ends so that link-local IPv6 cannot bypass
// the IPv4 rules.

const (
	netnsDir      = "/var/run/netns"
	maxSlotsLimit = 1 << 14
)

// network names the host objects of one Runtime. Two runtimes on one host
// (agentsvc and its tests) need different names and subnets.
type network struct {
	name   string // short: interface names are at most 15 bytes
	subnet netip.Prefix
}

func (n network) chainIn() string      { return "AGENTSVC-IN-" + n.name }
func (n network) chainForward() string { return "AGENTSVC-FWD-" + n.name }
func (n network) chainNAT() string     { return "AGENTSVC-NAT-" + n.name }
func (n network) netnsName(slot int) string {
	return fmt.Sprintf("agentsvc-%s-%d", n.name, slot)
}
func (n network) hostIf(slot int) string    { return fmt.Sprintf("%s%d", n.name, slot) }
func (n network) peerIf(slot int) string    { return fmt.Sprintf("%s%dp", n.name, slot) }
func (n network) netnsPath(slot int) string { return netnsDir + "/" + n.netnsName(slot) }

// blockedNets are destinations no sandbox may reach through the host, beside
// the host itself: link-local (169.254.169.254 cloud metadata), private and
// shared address space where a host's internal services live.
var blockedNets = []string{
	"169.254.0.0/16", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
	"100.64.0.0/10", "127.0.0.0/8", "224.0.0.0/4",
}

type slotAddrs struct {
	host, sandbox netip.Addr
	bits          int
}

func addrsFor(subnet netip.Prefix, slot int) (slotAddrs, error) {
	base := subnet.Masked().Addr().As4()
	n := uint32(base[0])<<24 | uint32(base[1])<<16 | uint32(base[2])<<8 | uint32(base[3])
	size := uint32(1) << (32 - subnet.Bits())
	off := uint32(slot) * 4
	if slot < 0 || off+3 >= size {
		return slotAddrs{}, fmt.Errorf("gvisor: network slot %d outside %s", slot, subnet)
	}
	at := func(v uint32) netip.Addr {
		return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
	}
	return slotAddrs{host: at(n + off + 1), sandbox: at(n + off + 2), bits: 30}, nil
}

// run runs a host command and returns its error with the output attached.
func runHost(ctx context.Context, name string, args ...string) error {
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

// setup creates the namespace and veth pair for slot, replacing leftovers
// from an earlier run (after a restore the old namespace no longer holds the
// addresses: runsc removes them from the host kernel when it takes the link).
//
// It runs on every create, resume and fork, so it uses few processes: the
// veth is created with its peer already in the namespace and named eth0, each
// side's addresses and routes go through one `ip -batch`, and the IPv6
// sysctls are written directly (in the namespace from a thread that joined
// it).
func (n network) setup(ctx context.Context, slot int) error {
	a, err := addrsFor(n.subnet, slot)
	if err != nil {
		return err
	}
	n.teardown(ctx, slot)
	ns, hif := n.netnsName(slot), n.hostIf(slot)
	fail := func(err error) error {
		n.teardown(context.WithoutCancel(ctx), slot)
		return fmt.Errorf("gvisor: network: %w", err)
	}
	if err := runHost(ctx, "ip", "netns", "add", ns); err != nil {
		return fail(err)
	}
	if err := runHost(ctx, "ip", "link", "add", hif, "type", "veth", "peer", "name", "eth0", "netns", ns); err != nil {
		return fail(err)
	}
	if err := disableIPv6InNetns(n.netnsPath(slot)); err != nil {
		return fail(err)
	}
	if err := os.WriteFile("/proc/sys/net/ipv6/conf/"+hif+"/disable_ipv6", []byte("1\n"), 0o644); err != nil {
		return fail(err)
	}
	inside := fmt.Sprintf("addr add %s/%d dev eth0\nlink set eth0 up\nlink set lo up\nroute add default via %s\n", a.sandbox, a.bits, a.host)
	if err := runBatch(ctx, inside, "-n", ns); err != nil {
		return fail(err)
	}
	outside := fmt.Sprintf("addr add %s/%d dev %s\nlink set %s up\n", a.host, a.bits, hif, hif)
	if err := runBatch(ctx, outside); err != nil {
		return fail(err)
	}
	return nil
}

// runBatch runs `ip [opts] -batch -` with commands on stdin.
func runBatch(ctx context.Context, commands string, opts ...string) error {
	cmd := exec.CommandContext(ctx, "ip", append(opts, "-batch", "-")...)
	cmd.Stdin = strings.NewReader(commands)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("ip %s -batch: %w: %s", strings.Join(opts, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

// disableIPv6InNetns turns IPv6 off in the network namespace at nsPath, so
// that link-local IPv6 cannot bypass the IPv4 rules. /proc/sys/net belongs
// to the network namespace of the thread that opens it, so a locked thread
// joins the namespace, writes, and is then thrown away (the goroutine ends
// without unlocking it) rather than returned to the scheduler in the wrong
// namespace.
func disableIPv6InNetns(nsPath string) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		f, err := os.Open(nsPath)
		if err != nil {
			errc <- err
			return
		}
		defer f.Close()
		if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("setns %s: %w", nsPath, err)
			return
		}
		for _, k := range []string{"all", "default", "eth0"} {
			if err := os.WriteFile("/proc/sys/net/ipv6/conf/"+k+"/disable_ipv6", []byte("1\n"), 0o644); err != nil {
				errc <- fmt.Errorf("disabling IPv6 in %s: %w", nsPath, err)
				return
			}
		}
		errc <- nil
	}()
	return <-errc
}

// teardown removes the namespace and the veth pair; deleting the host end
// deletes its peer. Missing pieces are not an error (and cost no process).
func (n network) teardown(ctx context.Context, slot int) {
	if _, err := os.Stat("/sys/class/net/" + n.hostIf(slot)); err == nil {
		_ = runHost(ctx, "ip", "link", "del", n.hostIf(slot))
	}
	if _, err := os.Stat(n.netnsPath(slot)); err == nil {
		_ = runHost(ctx, "ip", "netns", "del", n.netnsName(slot))
	}
}

// setupFirewall installs the chains described above. It is idempotent: the
// chains are flushed and refilled, and the jumps added only when missing.
func (n network) setupFirewall(ctx context.Context, outbound bool) error {
	chainIn, chainForward, chainNAT := n.chainIn(), n.chainForward(), n.chainNAT()
	if _, err := exec.LookPath("iptables"); err != nil {
		return fmt.Errorf("gvisor: iptables not found (apt-get install -y iptables): %w", err)
	}
	ipt := func(args ...string) error { return runHost(ctx, "iptables", append([]string{"-w"}, args...)...) }
	ensureChain := func(table, chain string) error {
		if err := runHost(ctx, "iptables", "-w", "-t", table, "-n", "-L", chain); err != nil {
			if err := ipt("-t", table, "-N", chain); err != nil {
				return err
			}
		}
		return ipt("-t", table, "-F", chain)
	}
	ensureJump := func(table, from, chain string, match ...string) error {
		rule := append(append([]string{}, match...), "-j", chain)
		check := append([]string{"-t", table, "-C", from}, rule...)
		if err := runHost(ctx, "iptables", append([]string{"-w"}, check...)...); err == nil {
			return nil
		}
		return ipt(append([]string{"-t", table, "-I", from, "1"}, rule...)...)
	}
	sub := n.subnet.Masked().String()
	ifs := n.name + "+"
	rules := [][]string{
		{"-A", chainIn, "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT"},
		{"-A", chainIn, "-j", "DROP"},
		{"-A", chainForward, "-i", ifs, "-o", ifs, "-j", "DROP"},
		{"-A", chainForward, "-o", ifs, "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT"},
		{"-A", chainForward, "-o", ifs, "-j", "DROP"},
	}
	for _, r := range hostResolvers() {
		rules = append(rules,
			[]string{"-A", chainForward, "-i", ifs, "-d", r, "-p", "udp", "--dport", "53", "-j", "ACCEPT"},
			[]string{"-A", chainForward, "-i", ifs, "-d", r, "-p", "tcp", "--dport", "53", "-j", "ACCEPT"})
	}
	for _, n := range blockedNets {
		rules = append(rules, []string{"-A", chainForward, "-i", ifs, "-d", n, "-j", "DROP"})
	}
	if outbound {
		rules = append(rules, []string{"-A", chainForward, "-i", ifs, "-j", "ACCEPT"})
	} else {
		rules = append(rules, []string{"-A", chainForward, "-i", ifs, "-j", "DROP"})
	}
	if err := ensureChain("filter", chainIn); err != nil {
		return fmt.Errorf("gvisor: firewall: %w", err)
	}
	if err := ensureChain("filter", chainForward); err != nil {
		return fmt.Errorf("gvisor: firewall: %w", err)
	}
	if err := ensureChain("nat", chainNAT); err != nil {
		return fmt.Errorf("gvisor: firewall: %w", err)
	}
	for _, r := range rules {
		if err := ipt(r...); err != nil {
			return fmt.Errorf("gvisor: firewall: %w", err)
		}
	}
	if err := ipt("-t", "nat", "-A", chainNAT, "-s", sub, "!", "-d", sub, "-j", "MASQUERADE"); err != nil {
		return fmt.Errorf("gvisor: firewall: %w", err)
	}
	for _, j := range []struct {
		table, from, chain string
		match              []string
	}{
		{"filter", "INPUT", chainIn, []string{"-i", ifs}},
		{"filter", "FORWARD", chainForward, []string{"-i", ifs}},
		{"filter", "FORWARD", chainForward, []string{"-o", ifs}},
		{"nat", "POSTROUTING", chainNAT, nil},
	} {
		if err := ensureJump(j.table, j.from, j.chain, j.match...); err != nil {
			return fmt.Errorf("gvisor: firewall: %w", err)
		}
	}
	if outbound {
		// Routing sandbox traffic out needs forwarding; the FORWARD rules
		// above keep it to sandbox traffic we allow.
		if err := os.WriteFile("/proc/sys/net/ipv4/ip_forward", []byte("1\n"), 0o644); err != nil {
			return fmt.Errorf("gvisor: enabling ip_forward: %w", err)
		}
	}
	return nil
}

// hostResolvers are the IPv4 nameservers of the host's resolv.conf that a
// sandbox can reach through the host (loopback resolvers cannot be reached).
func hostResolvers() []string {
	data, err := os.ReadFile("/etc/resolv.conf")
	if err != nil {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || f[0] != "nameserver" {
			continue
		}
		a, err := netip.ParseAddr(f[1])
		if err != nil || !a.Is4() || a.IsLoopback() {
			continue
		}
		out = append(out, a.String())
	}
	return out
}

// sandboxResolvConf is the resolv.conf written into each sandbox.
func sandboxResolvConf() []byte {
	var b bytes.Buffer
	for _, r := range hostResolvers() {
		fmt.Fprintf(&b, "nameserver %s\n", r)
	}
	return b.Bytes()
}
