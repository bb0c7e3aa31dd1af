/*
 * The test suite's scripted model server (dev.memoir.support.FakeOpenAiServer) as a process of its own, for the
 * reply-context benchmark: Memoir talks to it as to any OpenAI-compatible server, and the benchmark's driver reads
 * what each reply request held through a small control port.
 *
 *   java -cp target/test-classes:$(cat test-classpath.txt) bench/reply-context/ScriptedModelServer.java \
 *        [--context-tokens 8192] [--control-port 0] [--info-file /tmp/fake.json] [--reflection single|keywords]
 *
 * Prints (and writes to --info-file as JSON) the model server's base URL (with /v1) and the control URL.
 * Every step keeps the fake's default answer except self-reflection, whose answer is switched at run time:
 *   single    {"sufficient": true, "relevant": [1], "keywords": []}   (the model names one memory relevant)
 *   keywords  {"sufficient": false, "relevant": [], "keywords": [two or three content words of the user's message]}
 *
 * Control port (com.sun.net.httpserver, 127.0.0.1):
 *   POST /mode?reflection=single|keywords   switch the self-reflection answer; answers {"reflection": "..."}
 *   GET  /mode                              the current one
 *   GET  /calls?since=N                     every model call recorded from index N on, oldest first: {index, step}
 *                                           and, for reply calls, systemPrompt, messages [{role, content}],
 *                                           promptTokens (FakeOpenAiServer.promptTokens of all messages) and
 *                                           systemTokens (of the system message alone), systemCl100k (the system
 *                                           message in cl100k_base tokens, the service's own count, in which
 *                                           promptTokenBudget is set); "next" is the index the
 *                                           next call gets. Calls before N are forgotten (the reader has them).
 *   GET  /stats                             calls per step, and requests the fake refused (beyond its context,
 *                                           another model) or could not tell the step of: each one a finding.
 *
 * Benchmark code only: it runs the fake as the tests do, and never sits behind a switch in the service.
 */

import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.memoir.support.FakeOpenAiServer;
import dev.memoir.support.FakeOpenAiServer.Answer;
import dev.memoir.support.FakeOpenAiServer.ChatCall;
import dev.memoir.support.FakeOpenAiServer.Message;
import dev.memoir.support.FakeOpenAiServer.Step;

import tools.jackson.databind.json.JsonMapper;

public class ScriptedModelServer {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The service's own token count (dev.memoir.llm.TokenCounter: cl100k_base), in which budgets are set. */
    private static final Encoding CL100K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

    /** English function words: never a keyword. */
    private static final Set<String> STOP = Set.copyOf(List.of(("a about above after again against all am an and any are as at "
            + "be because been before being below between both but by can could did do does doing down during each "
            + "few for from further had has have having he her here hers herself him himself his how i if in into is "
            + "it its itself just me more most my myself no nor not now of off on once only or other our ours "
            + "ourselves out over own same she should so some such than that the their theirs them themselves then "
            + "there these they this those through to too under until up very was we were what when where which "
            + "while who whom why will with would you your yours yourself yourselves did does ever tell remember "
            + "know said say mentioned mention like also much many get got one two three us let lets i'm i've "
            + "what's can't don't didn't").split(" ")));

    private static final Pattern USER_INPUT = Pattern.compile("(?s)\\[User input\\]: (.*?)\\n\\nYou are about to respond");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'-]*");

    private final FakeOpenAiServer fake;
    private final AtomicReference<String> reflection;
    private final AtomicLong next = new AtomicLong();
    private final ConcurrentSkipListMap<Long, Map<String, Object>> recorded = new ConcurrentSkipListMap<>();
    private final Map<String, AtomicLong> perStep = new java.util.concurrent.ConcurrentHashMap<>();
    private final Field fakeCalls;

    ScriptedModelServer(int contextTokens, String mode) {
        this.fake = FakeOpenAiServer.withContext(contextTokens);
        this.reflection = new AtomicReference<>(mode);
        this.fakeCalls = fakeCallsField();
        // Rules are tried newest first. The self-reflection answer, then a rule that never matches but records every
        // call the fake accepted (beyond the context or for another model, a call is refused before the rules).
        fake.on(call -> call.is(Step.SELF_REFLECTION), this::reflect);
        fake.on(call -> {
            record(call);
            return false;
        }, call -> null);
    }

    /**
     * The fake keeps every call for the tests to read; over a benchmark's thousands of chats that list would only
     * grow. The calls are recorded here instead, and the fake's list is emptied now and then (reflection on a
     * test fixture, benchmark code only).
     */
    private static Field fakeCallsField() {
        try {
            Field f = FakeOpenAiServer.class.getDeclaredField("calls");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.err.println("ScriptedModelServer: cannot empty the fake's call list (" + e + "); it keeps growing");
            return null;
        }
    }

    private Answer reflect(ChatCall call) {
        if ("keywords".equals(reflection.get())) {
            return Answer.content(json(Map.of("sufficient", false, "relevant", List.of(),
                    "keywords", keywords(userInput(call)))));
        }
        return Answer.content("{\"sufficient\": true, \"relevant\": [1], \"keywords\": []}");
    }

    private static String userInput(ChatCall call) {
        String prompt = call.lastUserMessage();
        Matcher m = USER_INPUT.matcher(prompt);
        return m.find() ? m.group(1) : prompt;
    }

    /** Two or three content words of the message: its longest words that are not function words, in order. */
    static List<String> keywords(String message) {
        List<String> words = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        Matcher m = WORD.matcher(message);
        while (m.find()) {
            String w = m.group().replaceAll("['-]+$", "");
            String lower = w.toLowerCase(Locale.ROOT);
            if (lower.length() < 3 || STOP.contains(lower) || lower.endsWith("'s") && STOP.contains(lower.substring(0, lower.length() - 2))
                    || !seen.add(lower)) {
                continue;
            }
            words.add(w);
        }
        List<String> longest = words.stream().sorted(Comparator.comparingInt(String::length).reversed()).limit(3).toList();
        return words.stream().filter(longest::contains).toList();
    }

    private void record(ChatCall call) {
        long index = next.getAndIncrement();
        String step = call.stepTag();
        perStep.computeIfAbsent(step, s -> new AtomicLong()).incrementAndGet();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("index", index);
        row.put("step", step);
        if (call.is(Step.REPLY)) {
            String system = call.systemPrompt();
            row.put("systemPrompt", system);
            List<Map<String, String>> messages = new ArrayList<>();
            for (Message message : call.messages()) {
                messages.add(Map.of("role", message.role(), "content", message.content()));
            }
            row.put("messages", messages);
            row.put("promptTokens", FakeOpenAiServer.promptTokens(call.messages()));
            row.put("systemTokens", FakeOpenAiServer.promptTokens(List.of(new Message("system", system))));
            row.put("systemCl100k", CL100K.countTokensOrdinary(system));
            row.put("maxTokens", call.maxTokens());
        }
        recorded.put(index, row);
        if (fakeCalls != null && index % 256 == 255) {
            try {
                ((List<?>) fakeCalls.get(fake)).clear();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private void control(int port, Path infoFile) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/mode", exchange -> {
            try (exchange) {
                if ("POST".equals(exchange.getRequestMethod())) {
                    String mode = query(exchange).get("reflection");
                    if (!"single".equals(mode) && !"keywords".equals(mode)) {
                        send(exchange, 400, json(Map.of("error", "reflection must be single or keywords")));
                        return;
                    }
                    reflection.set(mode);
                }
                send(exchange, 200, json(Map.of("reflection", reflection.get())));
            }
        });
        server.createContext("/calls", exchange -> {
            try (exchange) {
                long since = Long.parseLong(query(exchange).getOrDefault("since", "0"));
                recorded.headMap(since).clear();
                List<Map<String, Object>> calls = new ArrayList<>(recorded.tailMap(since).values());
                send(exchange, 200, json(Map.of("next", next.get(), "calls", calls)));
            }
        });
        server.createContext("/stats", exchange -> {
            try (exchange) {
                Map<String, Object> stats = new LinkedHashMap<>();
                stats.put("calls", next.get());
                Map<String, Long> steps = new LinkedHashMap<>();
                perStep.forEach((step, count) -> steps.put(step, count.get()));
                stats.put("perStep", steps);
                stats.put("refused", fake.refusedRequests());
                stats.put("untagged", fake.untaggedRequests());
                stats.put("reflection", reflection.get());
                send(exchange, 200, json(stats));
            }
        });
        server.start();
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("baseUrl", fake.baseUrl());
        info.put("model", FakeOpenAiServer.MODEL);
        info.put("contextTokens", fake.contextTokens());
        info.put("control", "http://127.0.0.1:" + server.getAddress().getPort());
        info.put("pid", ProcessHandle.current().pid());
        String text = json(info);
        if (infoFile != null) {
            Path tmp = infoFile.resolveSibling(infoFile.getFileName() + ".tmp");
            Files.writeString(tmp, text);
            Files.move(tmp, infoFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        System.out.println(text);
        System.out.flush();
    }

    private static Map<String, String> query(HttpExchange exchange) {
        Map<String, String> out = new LinkedHashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw == null) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private static String json(Object value) {
        return JSON.writeValueAsString(value);
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    public static void main(String[] args) throws Exception {
        int context = FakeOpenAiServer.CONTEXT_TOKENS;
        int controlPort = 0;
        Path info = null;
        String mode = "single";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--context-tokens" -> context = Integer.parseInt(args[++i]);
                case "--control-port" -> controlPort = Integer.parseInt(args[++i]);
                case "--info-file" -> info = Path.of(args[++i]);
                case "--reflection" -> mode = args[++i];
                case "--keywords" -> {
                    // A check of the keyword choice: prints the keywords of the message given.
                    System.out.println(keywords(args[++i]));
                    return;
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        new ScriptedModelServer(context, mode).control(controlPort, info);
        Thread.currentThread().join();
    }
}
