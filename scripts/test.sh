#!/usr/bin/env bash
# Runs Memoir's whole test suite: ./scripts/test.sh [extra Maven arguments]
#
# Tests need PostgreSQL with pgvector. Where Docker is available they start a pgvector container through
# Testcontainers; otherwise this script first installs and starts a local PostgreSQL with pgvector
# (scripts/local-postgres.sh, Debian; needs root or sudo) and the tests use its memoir_test database.
# The inspector page's tests drive a headless Chromium: Debian's chromium and chromium-driver are installed
# where missing (root or sudo), since Selenium is never allowed to download a browser or a driver.
# RealModelServerTest runs Memoir against llama.cpp's llama-server: scripts/llama-server.sh builds it once from the
# source npm's node-llama-cpp ships and caches it (~/.cache/memoir); its stand-in model is written by Python with
# numpy and PyYAML (Debian's python3-numpy and python3-yaml, installed where missing).
# CitusTest runs Memoir on Citus, a coordinator and two workers: scripts/citus.sh builds Citus once from
# ../shared/vendor/citus-13.2.2.tar.gz beside the repository (about 6 minutes on 2 cores, cached in ~/.cache/memoir)
# and starts three local clusters of PostgreSQL 15 (ports 9700-9702). Without that archive this script stops and says
# where Citus's packages and images come from, unless MEMOIR_TEST_WITHOUT_CITUS=1 asks it to leave Citus out (printed
# in the summary); MEMOIR_TEST_CITUS_URL may name a running coordinator instead.
# ReadmeClientSnippetTest runs the README's JavaScript client under node with OpenAI's npm package, installed once
# into ~/.cache/memoir/openai-node (Debian's npm where missing).
# The Spring AI client in clients/spring-ai is built and tested (its own Maven project) before the service's suite.
# Before all that, the Java sources' formatting is checked (./mvnw spotless:check); ./mvnw spotless:apply formats them.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/jdk.sh

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# The browser tests use /usr/bin/chromium and /usr/bin/chromedriver from Debian's packages.
install_browser() {
  if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    return 0
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "The inspector tests need chromium and chromedriver at /usr/bin (Debian: apt-get install chromium chromium-driver)." >&2
    exit 1
  fi
  echo "Installing chromium and chromium-driver for the inspector page's browser tests."
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
}

# The stand-in model of the real-model-server test is written by a Python script with llama.cpp's gguf-py, which
# needs numpy and PyYAML: Debian's python3-numpy and python3-yaml where the python3 on PATH lacks them.
pick_python() {
  local python
  for python in python3 /usr/bin/python3; do
    if command -v "$python" >/dev/null 2>&1 && "$python" -c 'import numpy, yaml' >/dev/null 2>&1; then
      MEMOIR_TEST_PYTHON="$(command -v "$python")"
      export MEMOIR_TEST_PYTHON
      return 0
    fi
  done
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "The real-model-server test needs python3 with numpy and PyYAML." >&2
    exit 1
  fi
  echo "Installing python3-numpy and python3-yaml for the real-model-server test's stand-in model."
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-numpy python3-yaml >/dev/null
  export MEMOIR_TEST_PYTHON=/usr/bin/python3
}

# The README's JavaScript client snippet is run by node with OpenAI's npm package (ReadmeClientSnippetTest): the
# package is installed once into ~/.cache/memoir/openai-node (Debian's npm, which brings node, where missing).
OPENAI_NODE_VERSION=6.30.1
install_openai_node() {
  local dir="${MEMOIR_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/memoir}/openai-node"
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    if ! command -v apt-get >/dev/null 2>&1; then
      echo "The README's client snippet test needs node and npm." >&2
      exit 1
    fi
    echo "Installing npm (with node) for the README's client snippet test."
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
  fi
  if [ "$(node -p 'require(process.argv[1]).version' "$dir/node_modules/openai/package.json" 2>/dev/null)" != "$OPENAI_NODE_VERSION" ]; then
    echo "Installing openai@$OPENAI_NODE_VERSION from the npm registry into $dir."
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --silent --save-exact "openai@$OPENAI_NODE_VERSION" >/dev/null
  fi
  MEMOIR_TEST_OPENAI_NODE="$dir"
  export MEMOIR_TEST_OPENAI_NODE
}

docker_available() {
  command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1
}

pick_jdk
echo "Using JDK at $JAVA_HOME"
# Formatting first, in seconds, before the installs, builds and the long test run below: palantir-java-format through
# Spotless (pom.xml), which also fails on unused imports.
if ! ./mvnw -B -q spotless:check; then
  echo "Java sources are not formatted (above): run ./mvnw spotless:apply, then ./scripts/test.sh again." >&2
  exit 1
fi
install_browser
pick_python
install_openai_node
# llama.cpp's llama-server for RealModelServerTest: built once (about 12 minutes on 2 cores), then reused.
MEMOIR_TEST_LLAMA_HOME="$(./scripts/llama-server.sh)"
export MEMOIR_TEST_LLAMA_HOME
# Citus for CitusTest: a coordinator and two workers on this machine, unless left out on request.
citus_note=""
if [ -n "${MEMOIR_TEST_CITUS_URL:-}" ]; then
  citus_note="Citus: the coordinator at $MEMOIR_TEST_CITUS_URL (MEMOIR_TEST_CITUS_URL)"
elif [ "${MEMOIR_TEST_WITHOUT_CITUS:-}" = "1" ]; then
  citus_note="Citus: LEFT OUT on request (MEMOIR_TEST_WITHOUT_CITUS=1): CitusTest did not run"
  export MEMOIR_TEST_WITHOUT_CITUS
else
  # Citus's source archive beside the repository (../shared/vendor); CI always has it.
  if ! ./scripts/citus.sh archive >/dev/null; then
    echo "To run the other tests without Citus: MEMOIR_TEST_WITHOUT_CITUS=1 ./scripts/test.sh" >&2
    exit 1
  fi
  if ! citus_url="$(./scripts/citus.sh start)"; then
    echo "Citus could not be started (above). To run the other tests without it: MEMOIR_TEST_WITHOUT_CITUS=1 ./scripts/test.sh" >&2
    exit 1
  fi
  MEMOIR_TEST_CITUS_URL="$citus_url"
  export MEMOIR_TEST_CITUS_URL
  citus_note="Citus: a coordinator and two workers started by scripts/citus.sh ($MEMOIR_TEST_CITUS_URL)"
fi
echo "$citus_note"

if docker_available; then
  echo "Docker is available: tests start PostgreSQL with pgvector through Testcontainers."
elif [ -z "${MEMOIR_TEST_DB_URL:-}" ]; then
  echo "No Docker engine: using a local PostgreSQL with pgvector."
  ./scripts/local-postgres.sh
fi
status=0
# The Spring AI client (clients/spring-ai, Java 17) is a Maven project of its own: built and its own tests run first.
# The service's suite below compiles its sources with the tests and runs it against a started service.
./mvnw -B -f clients/spring-ai/pom.xml verify || status=$?
if [ "$status" -eq 0 ]; then
  ./mvnw -B verify "$@" || status=$?
fi
echo
echo "Summary: tests $([ "$status" -eq 0 ] && echo passed || echo "FAILED (exit $status)")"
echo "$citus_note"
exit "$status"
