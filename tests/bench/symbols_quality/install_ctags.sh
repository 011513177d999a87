#!/bin/sh
# The independent extractors of tests/bench/symbols_quality. universal-ctags (every language)
# from Debian/Ubuntu; run as root (or with sudo) on the machine that runs the benchmark.
# The languages' own parsers are used where present: go (go/ast), a JDK 11+ (the compiler tree
# API), node + npm (the benchmark installs typescript@5.9.3 under its cache on first use).
set -eu
if command -v ctags >/dev/null 2>&1 && ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
  ctags --version | head -1
  exit 0
fi
apt-get update
apt-get install -y universal-ctags
ctags --version | head -1
