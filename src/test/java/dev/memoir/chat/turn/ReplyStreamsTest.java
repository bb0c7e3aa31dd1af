package dev.memoir.chat.turn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskExecutor;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter.SseEventBuilder;

import dev.memoir.common.web.ApiException;
import dev.memoir.support.FakeOpenAiServer;

/** How a reply stream ends when it outlives its deadline or its client, without a servlet container. */
class ReplyStreamsTest {

    private static final Duration DEADLINE = Duration.ofMillis(300);

    private final CountDownLatch modelGoesOn = new CountDownLatch(1);
    private final CompletableFuture<Void> replyStored = new CompletableFuture<>();
    private final AtomicInteger tasksDone = new AtomicInteger();
    /** Runs each task on a thread of its own and counts those that have ended. */
    private final TaskExecutor executor = task -> new SimpleAsyncTaskExecutor().execute(() -> {
        try {
            task.run();
        } finally {
            tasksDone.incrementAndGet();
        }
    });

    private final Labels events = new Labels();
    private final RecordingEmitter emitter = new RecordingEmitter();

    @AfterEach
    void release() {
        modelGoesOn.countDown();
    }

    /** A responder whose model writes {@code before}, waits for the test, then writes {@code after}. */
    private ReplyStreams streams(List<String> before, List<String> after) {
        ChatResponder responder = new ChatResponder(null, null, null, null, null, null, null) {
            @Override
            ChatReply answerStreaming(PreparedTurn turn, Consumer<String> replyText) {
                before.forEach(replyText);
                try {
                    modelGoesOn.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                after.forEach(replyText);
                replyStored.complete(null);
                return new ChatReply(
                        String.join("", before) + String.join("", after),
                        null,
                        null,
                        List.of(),
                        false,
                        null,
                        FakeOpenAiServer.MODEL);
            }
        };
        return new ReplyStreams(responder, executor, new ChatProperties(12, 4000, DEADLINE));
    }

    @Test
    void aStreamThatHasNotBegunByItsDeadlineIsAnsweredWithTheTimeoutErrorAndTheReplyStillStored() {
        streams(List.of(), List.of("Late.")).answer(null, events, emitter);

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> emitter.failure != null);
        assertThat(emitter.failure)
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.code()).isEqualTo("stream-timeout"));
        modelGoesOn.countDown();
        replyStored.join();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> tasksDone.get() == 2);

        assertThat(emitter.sent).isEmpty();
        assertThat(emitter.completions).isZero();
    }

    @Test
    void aStreamThatHasBegunEndsWithAnErrorEventAtItsDeadlineAndTheReplyIsStillStored() {
        streams(List.of("Hel", "lo"), List.of(" again")).answer(null, events, emitter);

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> emitter.completions == 1);
        assertThat(emitter.sent).containsExactly("start", "text:Hel", "text:lo", "error:stream-timeout");
        modelGoesOn.countDown();
        replyStored.join();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> tasksDone.get() == 2);

        assertThat(emitter.sent).hasSize(4);
        assertThat(emitter.completions).isEqualTo(1);
        assertThat(emitter.failure).isNull();
    }

    @Test
    void aStreamThatEndsInTimeIsNotCutByItsDeadline() throws Exception {
        streams(List.of("Quick"), List.of()).answer(null, events, emitter);
        modelGoesOn.countDown();

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> emitter.completions == 1);
        // Past the deadline, the ended stream must stay as it was: no timeout event, no second completion.
        Awaitility.await()
                .during(DEADLINE.multipliedBy(2))
                .atMost(DEADLINE.multipliedBy(4))
                .until(() -> emitter.completions == 1 && emitter.sent.size() == 3);

        assertThat(emitter.sent).containsExactly("start", "text:Quick", "end:Quick");
        assertThat(emitter.completions).isEqualTo(1);
    }

    @Test
    void aClientThatLeftGetsNoMoreEventsButTheReplyIsStillStored() {
        emitter.failFrom = 3;
        streams(List.of("One", "Two", "Three"), List.of("Four")).answer(null, events, emitter);
        modelGoesOn.countDown();
        replyStored.join();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> tasksDone.get() == 1);

        assertThat(emitter.sent).containsExactly("start", "text:One");
        assertThat(emitter.attempts).isEqualTo(3);
        assertThat(emitter.completions)
                .as("the container ends a response whose client left")
                .isZero();
    }

    /** Events labelled so that the test can tell what was sent. */
    private static final class Labels implements ReplyStreams.Events {

        final Map<SseEventBuilder, String> labels = new IdentityHashMap<>();

        private synchronized SseEventBuilder label(String label) {
            SseEventBuilder event = SseEmitter.event().data(label);
            labels.put(event, label);
            return event;
        }

        @Override
        public List<SseEventBuilder> start() {
            return List.of(label("start"));
        }

        @Override
        public SseEventBuilder text(String delta) {
            return label("text:" + delta);
        }

        @Override
        public List<SseEventBuilder> end(ChatReply reply) {
            return List.of(label("end:" + reply.reply()));
        }

        @Override
        public SseEventBuilder error(ApiException failure) {
            return label("error:" + failure.code());
        }
    }

    /** Records what the stream sends; from the {@code failFrom}th send on, sending fails as if the client left. */
    private final class RecordingEmitter extends SseEmitter {

        final List<String> sent = new ArrayList<>();
        volatile int attempts;
        volatile int completions;
        volatile Throwable failure;
        int failFrom = Integer.MAX_VALUE;

        @Override
        public synchronized void send(SseEventBuilder builder) throws IOException {
            attempts++;
            if (attempts >= failFrom) {
                throw new IOException("Broken pipe");
            }
            sent.add(events.labels.get(builder));
        }

        @Override
        public synchronized void complete() {
            completions++;
        }

        @Override
        public synchronized void completeWithError(Throwable ex) {
            failure = ex;
        }
    }
}
