#!/usr/bin/env bash
# ensure-runsc.sh: make sure the pinned gVisor runsc is installed at
# /usr/local/bin/runsc. Idempotent: when the pinned build is already there it
# only prints the version. Needs root (writes /usr/local/bin) and Go.
set -euo pipefail

# Pinned in /work/shared/conventions.md. Debian's runsc package is older and
# only supports ptrace, so we build from source with the Go toolchain.
RUNSC_MODULE="gvisor.dev/gvisor/runsc"
RUNSC_VERSION="v0.0.0-20260905035102-160fafc42237"
DEST="/usr/local/bin/runsc"
STAMP="/usr/local/share/agentsvc/runsc.version"

have_pinned() {
	local bin
	bin="$(command -v runsc 2>/dev/null || true)"
	[ -n "$bin" ] || return 1
	# runsc built by `go install` reports its module version via buildinfo.
	go version -m "$bin" 2>/dev/null | grep -q "$RUNSC_VERSION" && return 0
	[ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$RUNSC_VERSION" ] && [ "$bin" = "$DEST" ]
}

# Host tools the runtime drives besides runsc: iproute2 (network namespaces,
# veth pairs) and iptables (isolation and NAT rules). Not on a fresh machine
# of every kind.
for tool in ip:iproute2 iptables:iptables; do
	bin=${tool%%:*} pkg=${tool##*:}
	if ! command -v "$bin" >/dev/null 2>&1; then
		echo "ensure-runsc: installing $pkg from Debian's packages" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null 2>&1 ||
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null; }
	fi
done

if ! have_pinned; then
	command -v go >/dev/null 2>&1 || { echo "ensure-runsc: Go toolchain not found on PATH" >&2; exit 1; }
	echo "ensure-runsc: installing $RUNSC_MODULE@$RUNSC_VERSION (takes a few minutes)" >&2
	gobin="$(mktemp -d)"
	trap 'rm -rf "$gobin"' EXIT
	CGO_ENABLED=0 GOBIN="$gobin" go install "$RUNSC_MODULE@$RUNSC_VERSION"
	install -m 0755 "$gobin/runsc" "$DEST.tmp"
	mv -f "$DEST.tmp" "$DEST"
	mkdir -p "$(dirname "$STAMP")"
	echo "$RUNSC_VERSION" >"$STAMP"
fi

# A `go install` build prints VERSION_MISSING for --version; the module
# version comes from the binary's build info instead.
echo "runsc $RUNSC_VERSION at $(command -v runsc)"
runsc --version | tail -n +2
