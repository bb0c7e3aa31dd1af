#!/usr/bin/env bash
# Builds llama.cpp's OpenAI-compatible llama-server once and prints the folder that holds it:
#   <folder>/bin/llama-server   the server
#   <folder>/src                the llama.cpp source it was built from (gguf-py, vocab-only GGUFs under models/)
#
# The source is the one npm's node-llama-cpp package ships (package/llama/gitRelease.bundle, a git bundle), so
# nothing but the npm registry and Debian's packages is needed. The build (CMake, Release, static, no tests,
# examples, app or web UI, no OpenSSL) takes about 12 minutes on 2 cores; its result is cached outside the
# repository, keyed by the package's version, in $MEMOIR_CACHE_DIR (default ~/.cache/memoir).
# Progress goes to standard error; standard output is the folder alone.
set -euo pipefail

VERSION=3.21.1
CACHE_ROOT="${MEMOIR_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/memoir}"
HOME_DIR="$CACHE_ROOT/llama.cpp-node-llama-cpp-$VERSION"

say() { echo "[llama-server] $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

ready() {
  [ -x "$HOME_DIR/bin/llama-server" ] && [ -d "$HOME_DIR/src/gguf-py" ]
}

if ready; then
  echo "$HOME_DIR"
  exit 0
fi

mkdir -p "$CACHE_ROOT"
# One build at a time: a second caller waits for the first and then uses its result.
exec 9>"$CACHE_ROOT/.llama-server-$VERSION.lock"
flock 9
if ready; then
  echo "$HOME_DIR"
  exit 0
fi

missing=()
command -v npm >/dev/null 2>&1 || missing+=(npm)
command -v git >/dev/null 2>&1 || missing+=(git)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "Building llama-server needs: ${missing[*]}" >&2
    exit 1
  fi
  say "installing ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

work="$(mktemp -d "$CACHE_ROOT/.llama-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT

say "fetching node-llama-cpp@$VERSION from the npm registry"
(cd "$work" && npm pack --silent "node-llama-cpp@$VERSION" >/dev/null)
tar -xzf "$work/node-llama-cpp-$VERSION.tgz" -C "$work" package/llama/gitRelease.bundle
git -c advice.detachedHead=false clone -q "$work/package/llama/gitRelease.bundle" "$work/src"

say "building llama-server (about 12 minutes on 2 cores; cached in $HOME_DIR)"
cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_SERVER=ON \
  -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF >&2
cmake --build "$work/build" --target llama-server -j "$(nproc)" >&2

mkdir -p "$work/result/bin"
cp "$work/build/bin/llama-server" "$work/result/bin/"
mv "$work/src" "$work/result/src"
rm -rf "$HOME_DIR"
mv "$work/result" "$HOME_DIR"
say "built $HOME_DIR/bin/llama-server"
echo "$HOME_DIR"
