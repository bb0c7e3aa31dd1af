# The test suite's scripted model server (bench/reply-context/ScriptedModelServer.java around
# dev.memoir.support.FakeOpenAiServer) as a process of its own, for benchmarks that need Memoir to call a model that
# answers at once. Sourced by bench/reply-context/run.sh and bench/scale/run.sh; they set ROOT (the repository),
# OUT (a directory outside it), JAVA and CONTEXT (the fake's context in tokens), and define log.
#
#   compile_scripted_model   compiles the test classes and saves their classpath in $OUT/test-classpath.txt
#                            (BENCH_SKIP_COMPILE=1 keeps what is there)
#   start_scripted_model     starts it; sets FAKE_PID, MODEL_URL, MODEL_NAME and CONTROL
#   scripted_model_args      the service's arguments that point it at the fake, as the integration tests do

compile_scripted_model() {
  if [ "${BENCH_SKIP_COMPILE:-0}" = 1 ] && [ -f "$OUT/test-classpath.txt" ] \
      && [ -f "$ROOT/target/test-classes/dev/memoir/support/FakeOpenAiServer.class" ]; then
    return 0
  fi
  log "compiling the test classes (the scripted model server) and resolving their classpath"
  (cd "$ROOT" && ./mvnw -B -q test-compile dependency:build-classpath -Dmdep.outputFile="$OUT/test-classpath.txt" \
    -Dmdep.includeScope=test) >"$OUT/compile.log" 2>&1 || { tail -n 40 "$OUT/compile.log" >&2; exit 1; }
}

start_scripted_model() {
  rm -f "$OUT/model-server.json"
  log "starting the scripted model server (context $CONTEXT tokens)"
  "$JAVA" -Xmx1g -cp "$ROOT/target/test-classes:$ROOT/target/classes:$(cat "$OUT/test-classpath.txt")" \
    "$ROOT/bench/reply-context/ScriptedModelServer.java" --context-tokens "$CONTEXT" \
    --info-file "$OUT/model-server.json" >"$OUT/model-server.log" 2>&1 &
  FAKE_PID=$!
  for _ in $(seq 1 120); do
    if [ -s "$OUT/model-server.json" ]; then break; fi
    if ! kill -0 "$FAKE_PID" 2>/dev/null; then tail -n 40 "$OUT/model-server.log" >&2; log "model server died"; exit 1; fi
    sleep 0.5
  done
  [ -s "$OUT/model-server.json" ] || { log "the model server did not start within 60 s"; exit 1; }
  MODEL_URL="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["baseUrl"])' "$OUT/model-server.json")"
  MODEL_NAME="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["model"])' "$OUT/model-server.json")"
  CONTROL="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["control"])' "$OUT/model-server.json")"
  log "model server at $MODEL_URL, control at $CONTROL"
}

# The model settings of the integration tests (IntegrationTest.settings): no retries, no pacing.
scripted_model_args() {
  SCRIPTED_MODEL_ARGS=(--spring.ai.openai.base-url="$MODEL_URL" --spring.ai.openai.api-key=bench-key
    --spring.ai.openai.chat.model="$MODEL_NAME" --spring.ai.openai.chat.temperature=0.3
    --spring.ai.openai.timeout=30s --spring.ai.openai.max-retries=0
    --memoir.model.context-tokens="$CONTEXT"
    --memoir.model.prompt-tokens-per-second=1000000 --memoir.model.answer-tokens-per-second=1000000
    --memoir.model.retry-delay=50ms)
}
