#!/usr/bin/env bash
# promtool, Prometheus's checker of rule files, for `ops/prometheus/` (its tests run it: `promtool check
# rules`, `promtool test rules`). It comes from Debian's `prometheus` package, fetched without root by
# `apt-get download` (apt checks it against the signed archive) and unpacked with `dpkg-deb -x` into the
# stack's cache folder, one folder per package version; nothing is installed on the system.
#
#   bash stack/promtool.sh      # prints the path of promtool on stdout (installing it first if missing)
#
# Needs apt's package lists (`apt-get update`, which .ci/run runs when they lack the package).
# Environment: CATALOG_STACK_DIR (the cache folder, default ~/.cache/catalog-stack).
set -euo pipefail

# shellcheck source=SCRIPTDIR/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

command -v apt-cache >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 ||
  die "promtool comes from Debian's prometheus package: this needs apt-cache, apt-get and dpkg-deb (a Debian or Ubuntu machine)"

# The version apt would install: the cache keeps one folder per version, so a newer package is fetched once.
version="$(apt-cache policy prometheus 2>/dev/null | sed -n 's/^ *Candidate: *//p')"
[[ -n "$version" && "$version" != "(none)" ]] ||
  die "apt knows no 'prometheus' package: run 'apt-get update' (as root) so that its lists name it"

dir="$CACHE_DIR/prometheus-${version//[^A-Za-z0-9.+~-]/_}"
promtool="$dir/usr/bin/promtool"
if [[ ! -x "$promtool" ]]; then
  log "fetching Debian's prometheus $version for promtool into $dir"
  mkdir -p "$CACHE_DIR"
  scratch="$(mktemp -d "$CACHE_DIR/.prometheus.XXXXXX")"
  trap 'rm -rf "$scratch"' EXIT
  # apt's _apt user downloads into a folder it can write (it warns and downloads as us otherwise).
  chmod 0777 "$scratch"
  (cd "$scratch" && apt-get download -q "prometheus=$version" >"$scratch/download.log" 2>&1) ||
    { cat "$scratch/download.log" >&2; die "apt-get download prometheus=$version failed"; }
  dpkg-deb -x "$scratch"/prometheus_*.deb "$scratch/root"
  [[ -x "$scratch/root/usr/bin/promtool" ]] || die "the prometheus $version package holds no usr/bin/promtool"
  # Unpacked beside, then renamed: an interrupted fetch never leaves a half folder that later runs would trust.
  rm -rf "$dir"
  mv "$scratch/root" "$dir"
fi
"$promtool" --version >/dev/null 2>&1 || die "$promtool does not run"
printf '%s\n' "$promtool"
