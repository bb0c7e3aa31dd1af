# Sourced by scripts/run.sh and scripts/test.sh: exports JAVA_HOME as a JDK 21 or newer, since the Maven wrapper
# compiles for Java 21 and a machine's default java may be older (Debian 12's is 17). Uses JAVA_HOME or the java
# on PATH when new enough, otherwise the newest JDK installed under /usr/lib/jvm.

java_major() {
  "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}' | cut -d. -f1
}

pick_jdk() {
  local candidate
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ] && [ "$(java_major "$JAVA_HOME/bin/java")" -ge 21 ]; then
    export JAVA_HOME
    return 0
  fi
  if command -v javac >/dev/null 2>&1 && [ "$(java_major java)" -ge 21 ]; then
    JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
    export JAVA_HOME
    return 0
  fi
  for candidate in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    if [ -x "${candidate}bin/javac" ] && [ "$(java_major "${candidate}bin/java")" -ge 21 ]; then
      export JAVA_HOME="${candidate%/}"
      return 0
    fi
  done
  echo "Memoir needs a JDK 21 or newer (set JAVA_HOME, or install one under /usr/lib/jvm)." >&2
  exit 1
}
