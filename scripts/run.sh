#!/usr/bin/env bash
# Runs Memoir from the source, without Docker: ./scripts/run.sh [extra Spring Boot arguments]
#
# On a machine without Docker it first installs and starts a local PostgreSQL with pgvector
# (scripts/local-postgres.sh, Debian; needs root or sudo), unless SPRING_DATASOURCE_URL names another database.
# It runs the service with a JDK 21 or newer, found as scripts/test.sh finds one, on http://localhost:8080.
# Configure it with environment variables (docs/configuration.md), for example:
#   MEMOIR_SECURITY_BOOTSTRAP_KEY=s3cret SPRING_AI_OPENAI_BASE_URL=http://localhost:11434/v1 ./scripts/run.sh
# Extra arguments go to the application: ./scripts/run.sh --server.port=9090
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/jdk.sh

pick_jdk
echo "Using JDK at $JAVA_HOME"
if [ -z "${SPRING_DATASOURCE_URL:-}" ]; then
  ./scripts/local-postgres.sh
fi
args=()
if [ "$#" -gt 0 ]; then
  args=("-Dspring-boot.run.arguments=$*")
fi
exec ./mvnw -B -q spring-boot:run "${args[@]}"
