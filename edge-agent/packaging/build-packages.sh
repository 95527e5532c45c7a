#!/bin/sh
# Builds the agent packages the api serves to install.sh (docs/install.md):
#   tierwise-agent_<version>_<arch>.deb          (dpkg-deb; Depends from dpkg-shlibdeps)
#   tierwise-agent_<version>_linux-<arch>.tar.gz (bin/tierwise-agent)
#   SHA256SUMS                                    (sha256sum of both)
#   install.sh                                    (the installer the api fills in and serves)
# from the built binary.
#
# Usage: build-packages.sh BUILD_DIR OUT_DIR   (e.g. build build/packages, from edge-agent/)
set -eu

[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR OUT_DIR" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
BIN="$1/tierwise-agent"
OUT=$2
[ -x "$BIN" ] || { echo "build-packages: $BIN is missing: build the agent first" >&2; exit 1; }

VERSION=$("$BIN" --version)
ARCH=$(dpkg --print-architecture)
NAME="tierwise-agent_${VERSION}"
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT

rm -rf "$OUT"
mkdir -p "$OUT"

# Tarball: tierwise-agent-<version>/bin/tierwise-agent (install.sh unpacks it into /opt/tierwise).
mkdir -p "$STAGE/tar/tierwise-agent-$VERSION/bin"
install -m 0755 -s "$BIN" "$STAGE/tar/tierwise-agent-$VERSION/bin/tierwise-agent"
tar -C "$STAGE/tar" --owner=0 --group=0 --numeric-owner --sort=name -czf "$OUT/${NAME}_linux-$ARCH.tar.gz" "tierwise-agent-$VERSION"

# Debian package: /usr/bin/tierwise-agent; the shared libraries it links become Depends.
DEB="$STAGE/deb"
mkdir -p "$DEB/DEBIAN" "$DEB/usr/bin" "$DEB/usr/share/doc/tierwise-agent" "$STAGE/shlibs/debian"
install -m 0755 -s "$BIN" "$DEB/usr/bin/tierwise-agent"
printf 'Source: tierwise-agent\n\nPackage: tierwise-agent\nArchitecture: any\n' >"$STAGE/shlibs/debian/control"
DEPENDS=$(cd "$STAGE/shlibs" && dpkg-shlibdeps -O "$DEB/usr/bin/tierwise-agent" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
printf 'Tierwise edge agent %s. Installed by install.sh; docs/install.md.\n' "$VERSION" >"$DEB/usr/share/doc/tierwise-agent/README"
cat >"$DEB/DEBIAN/control" <<EOF
Package: tierwise-agent
Version: $VERSION
Architecture: $ARCH
Maintainer: Tierwise <agents@tierwise.invalid>
Depends: $DEPENDS
Section: admin
Priority: optional
Description: Tierwise edge agent
 Puts a RAM or NVMe cache tier in front of shared storage (NBD), and ships
 anonymized I/O telemetry (working sets, miss ratio curves) to Tierwise.
EOF
dpkg-deb --root-owner-group -Zxz --build "$DEB" "$OUT/${NAME}_$ARCH.deb" >/dev/null

(cd "$OUT" && sha256sum "${NAME}_$ARCH.deb" "${NAME}_linux-$ARCH.tar.gz" >SHA256SUMS)
install -m 0644 "$HERE/install.sh" "$OUT/install.sh"
echo "build-packages: ${NAME}_$ARCH.deb, ${NAME}_linux-$ARCH.tar.gz, SHA256SUMS and install.sh in $OUT"
