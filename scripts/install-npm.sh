#!/usr/bin/env bash
# Installs an npm release from the npm registry (the package `npm`, which bundles its dependencies) into
# ${XDG_CACHE_HOME:-~/.cache}/toolhooks/npm-<version>, once, and prints a bin folder holding just `npm`.
# The older-Node test uses it to run each old Node with the npm it ships with (scripts/install-node.sh gives
# the Node binary alone). Skipped when that version is already there.
#
#   PATH="$(bash scripts/install-node.sh 20.19.0):$(bash scripts/install-npm.sh 10.8.2):$PATH" npm install
#
# The argument is an exact version (10.8.2). Needs an npm of any version on PATH (the machine's own).
set -euo pipefail
version="${1:?usage: install-npm.sh <version, e.g. 10.8.2>}"
case "$version" in [0-9]*.[0-9]*.[0-9]*) ;; *) echo "install-npm: $version is not an exact version (10.8.2)" >&2; exit 2 ;; esac
cache="${XDG_CACHE_HOME:-$HOME/.cache}/toolhooks"
dir="$cache/npm-$version"
if [ ! -x "$dir/path/npm" ]; then
  mkdir -p "$cache"
  tmp="$(mktemp -d "$cache/.npm-$version.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  # Asked from the cache folder, not the project: the project's checks would stop npm on an older Node.
  (cd "$tmp" && npm pack "npm@$version" --silent >/dev/null)
  tar -xzf "$tmp/npm-$version.tgz" -C "$tmp"
  # `npm` alone in its folder, so that PATH gains nothing else (npx and node-gyp stay out of the way).
  mkdir -p "$tmp/package/path"
  ln -s ../bin/npm-cli.js "$tmp/package/path/npm"
  chmod +x "$tmp/package/bin/npm-cli.js"
  rm -rf "$dir"
  mv "$tmp/package" "$dir"
  echo "install-npm: installed npm $version into $dir" >&2
fi
echo "$dir/path"
