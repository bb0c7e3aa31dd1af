package dev.memoir.support;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.IntArrayList;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.memoir.llm.ModelStep;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A scripted OpenAI-compatible chat server over real HTTP, so that tests exercise the real Spring AI client, its
 * JSON and its errors. Tests add rules (first match wins, newest first); a call that no rule matches gets the
 * default answer of its step. Every call is recorded.
 * <p>
 * It is as strict as the servers users run. It serves one model, {@link #MODEL}, and answers a request naming
 * any other with Ollama's 404. It has a context of {@code contextTokens} per request and counts tokens as a server
 * whose tokenizer writes {@link #TOKENIZER_RATIO} tokens for each of cl100k_base's, with a chat template adding
 * {@link #REQUEST_OVERHEAD} tokens per request and {@link #MESSAGE_OVERHEAD} per message: a prompt that leaves no
 * room for its max_tokens is refused with llama.cpp's 400, and an answer longer than max_tokens is cut there
 * (finish_reason "length"), as a real server cuts it.
 */
public final class FakeOpenAiServer {

    /** The one model the fake serves. */
    public static final String MODEL = "memoir-test-model";

    /** The context the shared fake has, and the tests' memoir.model.context-tokens. */
    public static final int CONTEXT_TOKENS = 8192;

    /** The fake's tokens per cl100k_base token: a tokenizer exactly as verbose as Memoir's default assumes. */
    public static final double TOKENIZER_RATIO = 1.25;

    static final int REQUEST_OVERHEAD = 48;
    static final int MESSAGE_OVERHEAD = 8;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Encoding TOKENIZER =
            Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    private static final FakeOpenAiServer INSTANCE = new FakeOpenAiServer(CONTEXT_TOKENS);

    private final HttpServer server;
    private final int contextTokens;
    private final List<Rule> rules = new CopyOnWriteArrayList<>();
    private final List<ChatCall> calls = new CopyOnWriteArrayList<>();
    private final List<String> untagged = new CopyOnWriteArrayList<>();
    private final List<String> refused = new CopyOnWriteArrayList<>();
    private final List<Served> served = new CopyOnWriteArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();

    private FakeOpenAiServer(int contextTokens) {
        this.contextTokens = contextTokens;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/v1/chat/completions", this::handle);
        server.createContext("/v1/models", this::models);
        server.start();
    }

    /** The one server all tests share (started once per JVM, like the Spring context). */
    public static FakeOpenAiServer instance() {
        return INSTANCE;
    }

    /** A server of its own with another context, for a test class that runs Memoir with that context. */
    public static FakeOpenAiServer withContext(int contextTokens) {
        return new FakeOpenAiServer(contextTokens);
    }

    public int contextTokens() {
        return contextTokens;
    }

    /**
     * Requests the fake refused as a real server would: for another model (404), or beyond its context (400).
     * Each one is a bug in Memoir unless a test provoked it.
     */
    public List<String> refusedRequests() {
        return List.copyOf(refused);
    }

    /** The prompt's size in the fake's tokens, as a server counts a request of these messages. */
    public static int promptTokens(List<Message> messages) {
        int content = messages.stream()
                .mapToInt(m -> TOKENIZER.countTokensOrdinary(m.content()))
                .sum();
        return (int) Math.ceil(content * TOKENIZER_RATIO) + REQUEST_OVERHEAD + MESSAGE_OVERHEAD * messages.size();
    }

    private static int answerTokens(String content) {
        return (int) Math.ceil(TOKENIZER.countTokensOrdinary(content) * TOKENIZER_RATIO);
    }

    /** The longest start of {@code content} within {@code limit} of the fake's tokens. */
    private static String cut(String content, int limit) {
        IntArrayList tokens = TOKENIZER.encodeOrdinary(content);
        int keep = (int) Math.floor(limit / TOKENIZER_RATIO);
        IntArrayList kept = new IntArrayList(keep);
        for (int i = 0; i < keep && i < tokens.size(); i++) {
            kept.add(tokens.get(i));
        }
        return TOKENIZER.decode(kept);
    }

    /** Like Ollama's and llama.cpp's model list: the one model served. */
    private void models(HttpExchange exchange) throws IOException {
        try (exchange) {
            send(
                    exchange,
                    200,
                    "{\"object\":\"list\",\"data\":[{\"id\":\"" + MODEL
                            + "\",\"object\":\"model\",\"created\":1700000000,\"owned_by\":\"library\"}]}");
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** Answers calls matching {@code when} with {@code answer} (newest rules are tried first). */
    public Rule on(Predicate<ChatCall> when, Function<ChatCall, Answer> answer) {
        Rule rule = new Rule(when, answer);
        rules.addFirst(rule);
        return rule;
    }

    public void remove(Rule rule) {
        rules.remove(rule);
    }

    /** A request answered in full, with the usage the fake reported for it (as a server bills it). */
    public record Served(ChatCall call, int promptTokens, int completionTokens) {}

    /** The requests answered in full with a usage report, in the order they came. */
    public List<Served> served() {
        return List.copyOf(served);
    }

    public List<ChatCall> calls() {
        return List.copyOf(calls);
    }

    public List<ChatCall> calls(Predicate<ChatCall> filter) {
        return calls.stream().filter(filter).toList();
    }

    /** Requests that named no step, or one the fake does not know (each one a bug in the client). */
    public List<String> untaggedRequests() {
        return List.copyOf(untagged);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
            String tag = exchange.getRequestHeaders().getFirst(ModelStep.HEADER);
            ChatCall call = ChatCall.from(tag, body);
            calls.add(call);
            if (call.step() == Step.OTHER) {
                // Loud on purpose: a step's default answer and the tests' rules would silently miss such a call.
                String problem = "a chat request with "
                        + (tag == null ? "no " + ModelStep.HEADER + " header" : "the unknown step '" + tag + "'") + ": "
                        + call.prompt().lines().findFirst().orElse("");
                untagged.add(problem);
                System.err.println("FakeOpenAiServer refused " + problem);
                send(
                        exchange,
                        400,
                        "{\"error\":{\"message\":\"" + ModelStep.HEADER + " missing or unknown\","
                                + "\"type\":\"invalid_request_error\"}}");
                return;
            }
            if (!MODEL.equals(call.model())) {
                refused.add("model " + call.model() + " for " + call.stepTag());
                // Ollama's answer on its OpenAI-compatible endpoint (vLLM's also is a 404).
                send(
                        exchange,
                        404,
                        "{\"error\":{\"message\":\"model \\\"" + call.model()
                                + "\\\" not found, try pulling it first\",\"type\":\"api_error\",\"param\":null,"
                                + "\"code\":null}}");
                return;
            }
            int prompt = promptTokens(call.messages());
            int room = call.maxTokens() == null ? 0 : call.maxTokens();
            if (prompt + room > contextTokens) {
                refused.add(
                        call.stepTag() + ": " + prompt + " prompt tokens + max_tokens " + room + " > " + contextTokens);
                // llama.cpp's answer to a request beyond its context.
                send(
                        exchange,
                        400,
                        "{\"error\":{\"code\":400,\"message\":\"request (" + (prompt + room)
                                + " tokens) exceeds the available context size (" + contextTokens
                                + " tokens), try increasing it\",\"type\":\"exceed_context_size_error\"}}");
                return;
            }
            Answer answer = rules.stream()
                    .filter(r -> r.when().test(call))
                    .findFirst()
                    .map(r -> r.answer().apply(call))
                    .orElseGet(() -> Answer.content(defaultContent(call)));
            if (answer.delay() != null) {
                sleep(answer.delay());
            }
            if (answer.status() != 200) {
                answer.headers()
                        .forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
                send(
                        exchange,
                        answer.status(),
                        answer.rawBody() != null
                                ? answer.rawBody()
                                : "{\"error\":{\"message\":\"scripted failure\",\"type\":\"server_error\"}}");
                return;
            }
            String finish = "stop";
            if (answer.content() != null
                    && call.maxTokens() != null
                    && answerTokens(answer.content()) > call.maxTokens()) {
                answer = answer.withContent(cut(answer.content(), call.maxTokens()));
                finish = "length";
            }
            if (call.streamed() && answer.rawBody() == null) {
                boolean usage =
                        call.body().path("stream_options").path("include_usage").asBoolean(false);
                if (usage && answer.pieces() == null) {
                    served.add(
                            new Served(call, prompt, answerTokens(answer.content() == null ? "" : answer.content())));
                }
                sendStream(exchange, answer, usage, prompt, finish);
                return;
            }
            if (answer.rawBody() == null) {
                served.add(new Served(call, prompt, answerTokens(answer.content() == null ? "" : answer.content())));
            }
            send(
                    exchange,
                    200,
                    answer.rawBody() != null ? answer.rawBody() : completion(answer.content(), prompt, finish));
        }
    }

    /**
     * OpenAI's event stream of the answer's content, cut into pieces of {@link #STREAM_PIECE} characters so that
     * JSON keys, values and escapes are split across chunks. An answer that fails mid-stream sends its first pieces
     * and then an error event, as OpenAI does when generation fails after it began.
     */
    private void sendStream(HttpExchange exchange, Answer answer, boolean includeUsage, int promptTokens, String finish)
            throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        String id = "chatcmpl-fake-" + ids.incrementAndGet();
        try (OutputStream out = exchange.getResponseBody()) {
            event(out, chunk(id, delta -> delta.put("role", "assistant").put("content", ""), null));
            String content = answer.content() == null ? "" : answer.content();
            int pieces = 0;
            for (int at = 0; at < content.length(); at += STREAM_PIECE) {
                if (answer.pieces() != null
                        && pieces == answer.pieces()
                        && answer.resume() != null
                        && resumed(answer.resume())) {
                    answer = Answer.content(content);
                }
                if (answer.pieces() != null && pieces == answer.pieces()) {
                    // The client reads the chunks sent so far before the error reaches it (Spring AI's stream
                    // delivers an error at once, dropping chunks it has not handed on yet).
                    sleep(Duration.ofMillis(200));
                    event(
                            out,
                            "{\"error\":{\"message\":\"scripted failure mid-stream\",\"type\":\"server_error\","
                                    + "\"code\":null,\"param\":null}}");
                    return;
                }
                String piece = content.substring(at, Math.min(content.length(), at + STREAM_PIECE));
                event(out, chunk(id, delta -> delta.put("content", piece), null));
                pieces++;
            }
            event(out, chunk(id, delta -> {}, finish));
            if (includeUsage) {
                ObjectNode usage = JSON.createObjectNode();
                usage.put("id", id);
                usage.put("object", "chat.completion.chunk");
                usage.put("created", 1_700_000_000L);
                usage.put("model", MODEL);
                usage.putArray("choices");
                int completion = answerTokens(content);
                usage.putObject("usage")
                        .put("prompt_tokens", promptTokens)
                        .put("completion_tokens", completion)
                        .put("total_tokens", promptTokens + completion);
                event(out, JSON.writeValueAsString(usage));
            }
            event(out, "[DONE]");
        }
    }

    /** Whether the test let a held stream go on (within ten seconds). */
    private static boolean resumed(CompletableFuture<Void> resume) {
        try {
            resume.get(10, TimeUnit.SECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Characters of content per streamed chunk. */
    public static final int STREAM_PIECE = 4;

    private static String chunk(String id, Consumer<ObjectNode> delta, String finishReason) {
        ObjectNode root = JSON.createObjectNode();
        root.put("id", id);
        root.put("object", "chat.completion.chunk");
        root.put("created", 1_700_000_000L);
        root.put("model", MODEL);
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        delta.accept(choice.putObject("delta"));
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return JSON.writeValueAsString(root);
    }

    private static void event(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private String completion(String content, int promptTokens, String finish) {
        ObjectNode root = JSON.createObjectNode();
        root.put("id", "chatcmpl-fake-" + ids.incrementAndGet());
        root.put("object", "chat.completion");
        root.put("created", 1_700_000_000L);
        root.put("model", MODEL);
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.put("finish_reason", finish);
        ObjectNode message = choice.putObject("message");
        message.put("role", "assistant");
        message.put("content", content);
        ObjectNode usage = root.putObject("usage");
        int completion = answerTokens(content == null ? "" : content);
        usage.put("prompt_tokens", promptTokens);
        usage.put("completion_tokens", completion);
        usage.put("total_tokens", promptTokens + completion);
        return JSON.writeValueAsString(root);
    }

    /** The JSON a session-summary step answers with: the summary and the standing instructions it found. */
    public static String sessionSummary(String summary, String... instructions) {
        ObjectNode answer = JSON.createObjectNode();
        answer.put("summary", summary);
        var list = answer.putArray("instructions");
        for (String instruction : instructions) {
            list.add(instruction);
        }
        return JSON.writeValueAsString(answer);
    }

    private static String defaultContent(ChatCall call) {
        return switch (call.step()) {
            case REPLY -> "{\"reply\": \"OK.\", \"remember\": false}";
            case SELF_REFLECTION ->
                "{\"sufficient\": true, \"relevant\": " + candidateNumbers(call) + ", \"keywords\": []}";
            case CONDITIONAL_MEMORY ->
                "{\"context\": \"NaN\", \"summary\": \"The user shared something.\", "
                        + "\"note\": \"Remember this.\", \"instruction\": \"NaN\"}";
            case MEMO_WRITING ->
                "{\"memos\": [{\"topic\": \"conversation\", \"summary\": \"The user and the bot "
                        + "talked.\", \"start\": 1, \"end\": " + lineCount(call) + "}]}";
            case MEMO_RETRIEVAL -> "{\"selected\": " + optionNumbersExceptNoto(call) + "}";
            case RECURSIVE_SUMMARY -> "The user and the bot talked.";
            case TOPIC_EXTRACTION ->
                call.lastUserMessage().contains("personal summaries of the USER from")
                        ? "{\"extracted_memories\": [{\"summary\": \"USER talked about something.\", \"reference\": [0]}]}"
                        : "{\"extracted_memories\": []}";
            case TOPIC_UPDATE -> "{\"actions\": [{\"action\": \"add\", \"index\": null, \"merged_summary\": null}]}";
            case REASONING_STEP ->
                "{\"thought\": \"I can answer.\", \"action\": \"finish\", \"argument\": \"I do not know.\"}";
            case REASONING_INFERENCE -> "I do not know.";
            case MEMORY_REFLECTION -> "{\"reflected_memory\": \"None\"}";
            case SUPERSESSION -> "{\"relations\": []}";
            case SESSION_SUMMARY -> sessionSummary("The user and the assistant talked.");
            case APPLICATION -> "OK.";
            case OTHER -> throw new IllegalStateException("Untagged calls are refused, not answered");
        };
    }

    /**
     * A supersession answer: every numbered memory of the prompt that contains {@code text} has the relation given,
     * every other one is unrelated.
     */
    public static String relations(ChatCall call, String text, String relation) {
        List<Map<String, Object>> relations = call.prompt()
                .lines()
                .filter(line -> line.matches("\\d+\\. \\(said .*"))
                .map(line -> Json.fields(
                        "index",
                        Integer.parseInt(line.substring(0, line.indexOf('.'))),
                        "relation",
                        line.contains(text) ? relation : "unrelated"))
                .toList();
        return Json.object("relations", relations);
    }

    /** How many lines a memo-writing prompt's conversation has. */
    public static int lineCount(ChatCall call) {
        var m = Pattern.compile("(\\d+)-line Task Conversation").matcher(call.lastUserMessage());
        return m.find() ? Integer.parseInt(m.group(1)) : 1;
    }

    /** The number of the NOTO option in a memo-retrieval prompt. */
    public static int notoOption(ChatCall call) {
        var m = Pattern.compile("(?m)^\\((\\d+)\\) NOTO\\.").matcher(call.lastUserMessage());
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** The option number of the memo whose topic is given, in a memo-retrieval prompt. */
    public static int optionOf(ChatCall call, String topic) {
        var m = Pattern.compile("(?m)^\\((\\d+)\\) " + Pattern.quote(topic) + "\\.")
                .matcher(call.lastUserMessage());
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static String optionNumbersExceptNoto(ChatCall call) {
        int noto = notoOption(call);
        return Pattern.compile("(?m)^\\((\\d+)\\) ")
                .matcher(call.lastUserMessage())
                .results()
                .map(m -> m.group(1))
                .filter(n -> Integer.parseInt(n) != noto)
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** The numbers of the numbered candidates in a self-reflection prompt, as a JSON array: all of them. */
    private static String candidateNumbers(ChatCall call) {
        return Pattern.compile("(?m)^(\\d+)\\. ")
                .matcher(call.lastUserMessage())
                .results()
                .map(m -> m.group(1))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /**
     * Holds the HTTP answer back: this is how the fixture plays a slow model (for the client's timeout), not a test
     * waiting for something to happen; tests wait with Awaitility.
     */
    private static void sleep(Duration delay) {
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public record Rule(Predicate<ChatCall> when, Function<ChatCall, Answer> answer) {}

    /**
     * What the fake answers: message content, an HTTP error status, an optional delay before answering, or a whole
     * raw body in place of a well-formed completion. A streamed request gets the content as an event stream; with
     * {@code pieces}, that stream ends with an error event after so many content chunks, unless {@code resume} is
     * given and completed within ten seconds, when it goes on.
     */
    public record Answer(
            int status,
            String content,
            Duration delay,
            String rawBody,
            Integer pieces,
            CompletableFuture<Void> resume,
            Map<String, String> headers) {

        public Answer(int status, String content, Duration delay) {
            this(status, content, delay, null, null, null, Map.of());
        }

        public Answer(int status, String content, Duration delay, String rawBody) {
            this(status, content, delay, rawBody, null, null, Map.of());
        }

        /**
         * For a streamed request: the first {@code pieces} chunks of the content, then an error event. A request
         * that is not streamed gets the whole content.
         */
        public static Answer failingMidStream(String content, int pieces) {
            return new Answer(200, content, null, null, pieces, null, Map.of());
        }

        /**
         * For a streamed request: the first {@code pieces} chunks of the content, then nothing until the test
         * completes {@code resume} (the model still writing), then the rest; an error event if it does not within
         * ten seconds.
         */
        public static Answer heldMidStream(String content, int pieces, CompletableFuture<Void> resume) {
            return new Answer(200, content, null, null, pieces, resume, Map.of());
        }

        public static Answer content(String content) {
            return new Answer(200, content, null);
        }

        Answer withContent(String shorter) {
            return new Answer(status, shorter, delay, rawBody, pieces, resume, headers);
        }

        /** An error status with the body given (a server's own error message). */
        public static Answer error(int status, String body) {
            return new Answer(status, null, null, body);
        }

        /** 429 with a Retry-After header, as an overloaded server asks a client to wait. */
        public static Answer overloaded(int retryAfterSeconds) {
            return new Answer(
                    429,
                    null,
                    null,
                    "{\"error\":{\"message\":\"Too many requests\",\"type\":\"rate_limit\"}}",
                    null,
                    null,
                    Map.of("Retry-After", Integer.toString(retryAfterSeconds)));
        }

        /** A 200 whose body is exactly {@code body} (a completion without choices, say). */
        public static Answer raw(String body) {
            return new Answer(200, null, null, body);
        }

        public static Answer json(String json) {
            return content(json);
        }

        /** A session-summary answer: the summary and the standing instructions it found. */
        public static Answer sessionSummary(String summary, String... instructions) {
            return content(FakeOpenAiServer.sessionSummary(summary, instructions));
        }

        public static Answer error(int status) {
            return new Answer(status, null, null);
        }

        public static Answer delayed(Duration delay, String content) {
            return new Answer(200, content, delay);
        }
    }

    /**
     * Which pipeline step a call comes from, told by the step name its {@code X-Memoir-Step} header carries (the
     * name of the step's prompt template); {@code OTHER} for a call without one, which the fake refuses.
     */
    public enum Step {
        REPLY,
        SELF_REFLECTION,
        CONDITIONAL_MEMORY,
        SESSION_SUMMARY,
        MEMO_WRITING,
        MEMO_RETRIEVAL,
        RECURSIVE_SUMMARY,
        TOPIC_EXTRACTION,
        TOPIC_UPDATE,
        REASONING_STEP,
        REASONING_INFERENCE,
        MEMORY_REFLECTION,
        SUPERSESSION,
        /**
         * A call an application makes itself, not one of Memoir's steps: the Spring AI client's tests, whose
         * application names this step with the same header ({@code X-Memoir-Step: application}).
         */
        APPLICATION,
        OTHER
    }

    /** One recorded chat-completions request, with the step name it was tagged with (null if none). */
    public record ChatCall(Step step, String stepTag, List<Message> messages, JsonNode body, Instant receivedAt) {

        /** Whether the request asked for an event stream ({@code "stream": true}). */
        public boolean streamed() {
            return body.path("stream").asBoolean(false);
        }

        /** The model the request named. */
        public String model() {
            return body.path("model").asString(null);
        }

        /** The request's temperature, if it set one. */
        public Double temperature() {
            return body.path("temperature").isNumber()
                    ? body.path("temperature").asDouble()
                    : null;
        }

        /** The answer limit the request set (max_tokens, or max_completion_tokens). */
        public Integer maxTokens() {
            JsonNode limit = body.has("max_tokens") ? body.path("max_tokens") : body.path("max_completion_tokens");
            return limit.isNumber() ? limit.asInt() : null;
        }

        static ChatCall from(String stepTag, JsonNode body) {
            List<Message> messages = new ArrayList<>();
            for (JsonNode m : body.path("messages")) {
                JsonNode content = m.path("content");
                String text = content.isString() ? content.asString() : content.toString();
                messages.add(new Message(m.path("role").asString(), text));
            }
            return new ChatCall(stepOf(stepTag), stepTag, List.copyOf(messages), body, Instant.now());
        }

        /** The fake's step for a step name (dev.memoir.llm.ModelStep#name). */
        static Step stepOf(String stepTag) {
            if (stepTag == null) {
                return Step.OTHER;
            }
            return switch (stepTag) {
                case "reply" -> Step.REPLY;
                case "self-reflection" -> Step.SELF_REFLECTION;
                case "conditional-memory" -> Step.CONDITIONAL_MEMORY;
                case "session-summary" -> Step.SESSION_SUMMARY;
                case "memo-writing" -> Step.MEMO_WRITING;
                case "memo-retrieval" -> Step.MEMO_RETRIEVAL;
                case "recursive-summary" -> Step.RECURSIVE_SUMMARY;
                case "topic-extraction" -> Step.TOPIC_EXTRACTION;
                case "topic-update" -> Step.TOPIC_UPDATE;
                case "r3-step" -> Step.REASONING_STEP;
                case "r3-inference" -> Step.REASONING_INFERENCE;
                case "memory-reflection" -> Step.MEMORY_REFLECTION;
                case "supersession" -> Step.SUPERSESSION;
                case "application" -> Step.APPLICATION;
                default -> Step.OTHER;
            };
        }

        /** Everything the model was shown, all messages joined. */
        public String prompt() {
            return String.join("\n", messages.stream().map(Message::content).toList());
        }

        public String lastUserMessage() {
            return messages.reversed().stream()
                    .filter(m -> m.role().equals("user"))
                    .map(Message::content)
                    .findFirst()
                    .orElse("");
        }

        public String systemPrompt() {
            return messages.stream()
                    .filter(m -> m.role().equals("system"))
                    .map(Message::content)
                    .findFirst()
                    .orElse("");
        }

        public boolean is(Step expected) {
            return step == expected;
        }

        public boolean mentions(String text) {
            return prompt().contains(text);
        }
    }

    public record Message(String role, String content) {}
}
