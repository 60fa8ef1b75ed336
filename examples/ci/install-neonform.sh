#!/usr/bin/env bash
# Installs neonform NEONFORM_VERSION (a release tag, v1.2.3) for the workflows
# in this directory; copy it to .github/neonform/install-neonform.sh beside them.
#
# From the release's archive for this machine, checked against the release's
# checksums.txt (sha256sum -c) and, when NEONFORM_SHA256 is set, against that
# pinned digest too, so a release whose files were replaced is refused. A
# digest that does not match stops the job: it never falls back.
#
# Only when the release has no checksums.txt (no such release, or one made
# before the archives) does it build the tag with go install, which Go checks
# against its checksum database (sum.golang.org); that needs Go on the PATH.
#
# The binary goes to NEONFORM_INSTALL_DIR (default ~/.local/bin), which is
# added to the job's PATH.
set -euo pipefail

version=${NEONFORM_VERSION:?set NEONFORM_VERSION to the neonform release to install, as v1.2.3}
case "$version" in
  v[0-9]*.[0-9]*.[0-9]*) ;;
  *) echo "NEONFORM_VERSION is \"$version\": set it to a release tag, as v1.2.3 (a branch would move under the pipeline)" >&2; exit 1 ;;
esac
releases=${NEONFORM_RELEASES_URL:-https://github.com/neonform/neonform/releases/download}
dir=${NEONFORM_INSTALL_DIR:-$HOME/.local/bin}

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "no neonform archive for $(uname -s): use the container image or go install" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "no neonform archive for $(uname -m): use go install" >&2; exit 1 ;;
esac
archive="neonform_${version#v}_${os}_${arch}.tar.gz"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$dir"

if curl -fsSL --retry 3 -o "$work/checksums.txt" "$releases/$version/checksums.txt"; then
  curl -fsSL --retry 3 -o "$work/$archive" "$releases/$version/$archive"
  # The archive's own line only: sha256sum -c would check every file listed.
  awk -v f="$archive" '$2 == f' "$work/checksums.txt" > "$work/expected"
  if [ ! -s "$work/expected" ]; then
    echo "checksums.txt of neonform $version lists no $archive: nothing installed" >&2
    exit 1
  fi
  if [ -n "${NEONFORM_SHA256:-}" ]; then
    echo "$NEONFORM_SHA256  $archive" >> "$work/expected"
  fi
  (cd "$work" && sha256sum -c expected) || {
    echo "$archive does not match its checksum: nothing installed. Check NEONFORM_VERSION and NEONFORM_SHA256 against the release page." >&2
    exit 1
  }
  tar -xzf "$work/$archive" -C "$work" neonform
  install -m 0755 "$work/neonform" "$dir/neonform"
else
  echo "no release archive of neonform $version at $releases/$version: building it with go install" >&2
  if ! GOBIN="$dir" go install "github.com/neonform/neonform@${version}"; then
    echo "neonform $version is not published: no release archive at $releases/$version, and go install found no such version. Nothing installed." >&2
    echo "See which versions exist with: go list -m -versions github.com/neonform/neonform (or the releases page), and set NEONFORM_VERSION to one of them." >&2
    exit 1
  fi
fi

if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$dir" >> "$GITHUB_PATH"
fi
"$dir/neonform" version
