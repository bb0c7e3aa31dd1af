package dev.memoir.chat.turn;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.task.TaskExecutor;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter.SseEventBuilder;

import dev.memoir.common.audit.AuditActor;
import dev.memoir.common.web.ApiException;

/**
 * Answers a prepared chat turn as server-sent events: the reply's text as the model writes it, then what was
 * stored. The turn is answered on the application's task executor (virtual threads) and holds no database
 * connection while the model writes; the reply is stored in its own short transaction afterwards, exactly as a
 * reply that is not streamed.
 * <p>
 * Nothing is sent before the reply's first text, so a failure before it (the model unreachable, an answer that
 * cannot be used) is answered with the endpoint's usual error status and body. A failure after it ends the stream
 * with the format's error event. The user's message is stored before the stream starts, and a client that goes
 * away does not stop the reply from being stored.
 */
@Component
public class ReplyStreams {

    private static final Logger log = LoggerFactory.getLogger(ReplyStreams.class);

    private final ChatResponder responder;
    private final TaskExecutor executor;
    private final ChatProperties properties;
    private final ScheduledThreadPoolExecutor deadlines = new ScheduledThreadPoolExecutor(
            1, Thread.ofPlatform().name("reply-stream-deadlines").daemon().factory());

    ReplyStreams(
            ChatResponder responder,
            @Qualifier("applicationTaskExecutor") TaskExecutor executor,
            ChatProperties properties) {
        this.responder = responder;
        this.executor = executor;
        this.properties = properties;
        deadlines.setRemoveOnCancelPolicy(true);
    }

    /** The events of one stream format. */
    public interface Events {

        /** Sent once, just before the reply's first text. */
        List<SseEventBuilder> start();

        SseEventBuilder text(String delta);

        /** Sent once the reply is stored; the stream ends after them. */
        List<SseEventBuilder> end(ChatReply reply);

        /** Ends a stream that has started when the reply fails. */
        SseEventBuilder error(ApiException failure);
    }

    /** The stream took longer than {@code memoir.chat.stream-timeout}. */
    static final class StreamTimeoutException extends ApiException {
        StreamTimeoutException() {
            super(
                    HttpStatus.GATEWAY_TIMEOUT,
                    "stream-timeout",
                    "The reply took longer than the stream may last (memoir.chat.stream-timeout); it is still "
                            + "stored when the model completes it");
        }
    }

    /** An error that is not the client's nor the model's. */
    static final class StreamFailedException extends ApiException {
        StreamFailedException(Throwable cause) {
            super(HttpStatus.INTERNAL_SERVER_ERROR, "internal-error", "An unexpected error occurred", cause);
        }
    }

    /**
     * The servlet container's own limit on the response, past {@code memoir.chat.stream-timeout}: only a stream
     * that could not end itself in time meets it. Spring ends such a response without a last event.
     */
    private static final Duration BACKSTOP = Duration.ofSeconds(30);

    @PreDestroy
    void stop() {
        deadlines.shutdownNow();
    }

    public ResponseEntity<SseEmitter> stream(ChatResponder.PreparedTurn turn, Events events) {
        SseEmitter emitter =
                new SseEmitter(properties.streamTimeout().plus(BACKSTOP).toMillis());
        answer(turn, events, emitter);
        return ResponseEntity.ok()
                .contentType(MediaType.TEXT_EVENT_STREAM)
                .cacheControl(CacheControl.noStore())
                // Proxies such as nginx would otherwise collect the events and pass them on all at once.
                .header("X-Accel-Buffering", "no")
                .body(emitter);
    }

    /** Answers the turn into the emitter on the task executor; returns at once. */
    void answer(ChatResponder.PreparedTurn turn, Events events, SseEmitter emitter) {
        Stream stream = new Stream(emitter, events);
        emitter.onTimeout(stream::ended);
        emitter.onError(failure -> stream.ended());
        emitter.onCompletion(stream::ended);
        // The stream's own deadline, so that it can still end with an event: once the container's timeout fires,
        // Spring has completed the emitter and nothing more can be sent.
        ScheduledFuture<?> deadline = deadlines.schedule(
                () -> executor.execute(stream::timedOut),
                properties.streamTimeout().toMillis(),
                TimeUnit.MILLISECONDS);
        // As the request's caller, for the audit trail's record of what the reply was shown.
        executor.execute(AuditActor.carried(() -> {
            try {
                stream.answer(turn);
            } finally {
                deadline.cancel(false);
            }
        }));
    }

    private final class Stream {

        private final SseEmitter emitter;
        private final Events events;
        private boolean started;
        /** The response is over (completed, failed, timed out, or the client went away): nothing more is sent. */
        private boolean ended;

        Stream(SseEmitter emitter, Events events) {
            this.emitter = emitter;
            this.events = events;
        }

        void answer(ChatResponder.PreparedTurn turn) {
            ChatReply reply;
            try {
                reply = responder.answerStreaming(turn, this::text);
            } catch (ApiException e) {
                fail(e);
                return;
            } catch (RuntimeException e) {
                log.error("Unexpected error while answering a streamed reply", e);
                fail(new StreamFailedException(e));
                return;
            }
            finish(reply);
        }

        synchronized void text(String delta) {
            if (delta.isEmpty()) {
                return;
            }
            start();
            send(events.text(delta));
        }

        private synchronized void finish(ChatReply reply) {
            start();
            events.end(reply).forEach(this::send);
            complete();
        }

        private synchronized void fail(ApiException failure) {
            if (ended) {
                log.warn("{}: {} (after the reply stream had ended)", failure.code(), failure.getMessage());
                log.debug("{}", failure.code(), failure);
                return;
            }
            if (!started) {
                // Nothing sent yet: the usual error status and body, through the endpoint's exception handlers.
                ended = true;
                emitter.completeWithError(failure);
                return;
            }
            log.warn("{}: {} (the reply stream had begun)", failure.code(), failure.getMessage());
            log.debug("{}", failure.code(), failure);
            send(events.error(failure));
            complete();
        }

        synchronized void timedOut() {
            if (ended) {
                return;
            }
            if (!started) {
                ended = true;
                emitter.completeWithError(new StreamTimeoutException());
                return;
            }
            log.warn(
                    "stream-timeout: a reply stream took longer than memoir.chat.stream-timeout ({})",
                    properties.streamTimeout());
            send(events.error(new StreamTimeoutException()));
            complete();
        }

        synchronized void ended() {
            ended = true;
        }

        private void start() {
            if (!started) {
                started = true;
                events.start().forEach(this::send);
            }
        }

        private void send(SseEventBuilder event) {
            if (ended) {
                return;
            }
            try {
                emitter.send(event);
            } catch (IOException | IllegalStateException e) {
                // The client went away (the container ends the response): the reply is still stored.
                ended = true;
            }
        }

        private void complete() {
            if (!ended) {
                ended = true;
                emitter.complete();
            }
        }
    }
}
