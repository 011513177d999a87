#!/bin/sh
# The independent extractor of tests/bench/symbols_quality: universal-ctags from Debian/Ubuntu.
# Run as root (or with sudo) on the machine that runs the benchmark.
set -eu
if command -v ctags >/dev/null 2>&1 && ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
  ctags --version | head -1
  exit 0
fi
apt-get update
apt-get install -y universal-ctags
ctags --version | head -1
