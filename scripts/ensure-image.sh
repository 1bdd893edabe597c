#!/usr/bin/env bash
# ensure-image.sh DATA_DIR [--desktop]: make sure the machine base image exists
# under DATA_DIR/images, with the in-sandbox agent installed. Idempotent: when
# the image's marker file is present only the agent is (re)installed. Builds with debootstrap (installed when missing) through the
# same Go code agentsvc uses (internal/machines/image). Needs root.
#
# Environment: SUITE (default bookworm; noble in production), MIRROR (default:
# the host's apt source, else http://deb.debian.org/debian).
set -euo pipefail

usage() { echo "usage: $0 DATA_DIR [--desktop]" >&2; exit 2; }
[ $# -ge 1 ] || usage
DATA_DIR="$1"; shift
VARIANT=base
for arg in "$@"; do
	case "$arg" in
		--desktop) VARIANT=desktop ;;
		*) usage ;;
	esac
done
SUITE="${SUITE:-bookworm}"
MARKER="$DATA_DIR/images/$SUITE-$VARIANT/.agentsvc-image"

# An existing image still goes through buildimage, which installs the current
# in-sandbox agent (internal/machines/agent; a few seconds with a warm Go build
# cache, nothing changes when the agent is unchanged).
if [ ! -f "$MARKER" ] && ! command -v debootstrap >/dev/null 2>&1; then
	echo "ensure-image: installing debootstrap" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y debootstrap >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y debootstrap >/dev/null; }
fi

cd "$(dirname "$0")/.."
mkdir -p "$DATA_DIR"
go run ./internal/machines/image/cmd/buildimage \
	-data-dir "$(cd "$DATA_DIR" && pwd)" -suite "$SUITE" -variant "$VARIANT" ${MIRROR:+-mirror "$MIRROR"}
