package dev.memoir.webhook;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * One signed POST of a delivery to its endpoint, after checking the endpoint's URL again (what a name resolves to
 * may have changed since it was registered), made in the background: no thread waits for a receiver. The attempt
 * takes at most {@code memoir.webhooks.timeout} as a whole: resolving the name, connecting, sending, the status line
 * and the headers, and discarding the answer's body, of which at most {@link #BODY_LIMIT} bytes are read before the
 * connection is dropped. The status decides the outcome: a receiver that answers 2xx and then stalls its body has
 * taken the delivery.
 *
 * <p>On shutdown it waits up to the timeout for the attempts in flight, whose outcomes are then recorded, and cuts
 * off the rest.
 */
@Component
class WebhookSender implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WebhookSender.class);

    /** Bytes of an answer's body read (and thrown away) at most; a receiver's answer is never needed. */
    static final int BODY_LIMIT = 16 * 1024;

    /** How an attempt went: the endpoint's status when it answered, and why it failed when it did. */
    record Attempt(Integer status, String error) {

        boolean delivered() {
            return error == null;
        }
    }

    private final WebhookTargets targets;
    private final HttpClient http;
    private final Duration timeout;
    /** The name lookups of the URL checks, which block in the resolver: never on a job thread. */
    private final ExecutorService resolver;
    /** Ends each attempt at its deadline. */
    private final ScheduledExecutorService deadlines;

    private final Set<CompletableFuture<Attempt>> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean running;

    WebhookSender(WebhookTargets targets, WebhookProperties properties) {
        this.targets = targets;
        this.timeout = properties.timeout();
        this.resolver = Executors.newCachedThreadPool(daemon("webhook-resolve-"));
        this.deadlines = Executors.newSingleThreadScheduledExecutor(daemon("webhook-deadline-"));
        // Redirects are not followed: a redirect could lead anywhere, past the checks of the target.
        this.http = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(properties.timeout())
                .build();
    }

    /**
     * Starts an attempt; the answer completes, never exceptionally, within the timeout (a little after it at most,
     * when the machine is busy).
     */
    CompletableFuture<Attempt> send(String url, String secret, UUID id, String payload) {
        CompletableFuture<Attempt> attempt = new CompletableFuture<>();
        if (!running) {
            attempt.complete(new Attempt(null, "not attempted: the service is stopping"));
            return attempt;
        }
        inFlight.add(attempt);
        attempt.whenComplete((done, error) -> inFlight.remove(attempt));
        AtomicInteger status = new AtomicInteger(-1);
        CompletableFuture<?> work = CompletableFuture.supplyAsync(() -> targets.problem(url), resolver)
                .thenCompose(refused -> {
                    if (refused != null) {
                        return CompletableFuture.completedFuture(new Attempt(null, "the endpoint's URL " + refused));
                    }
                    CompletableFuture<HttpResponse<Void>> exchange =
                            http.sendAsync(request(url, secret, id, payload), info -> {
                                status.set(info.statusCode());
                                return new BoundedDiscard(BODY_LIMIT);
                            });
                    // Ending the attempt also ends its exchange, whatever it is waiting for.
                    attempt.whenComplete((done, error) -> exchange.cancel(true));
                    return exchange.handle((response, error) -> outcome(status.get(), error));
                })
                .whenComplete(
                        (outcome, error) -> attempt.complete(outcome != null ? outcome : outcome(status.get(), error)));
        deadlines.schedule(
                () -> {
                    if (attempt.complete(outcome(status.get(), new TimeoutException()))) {
                        work.cancel(true);
                    }
                },
                timeout.toMillis(),
                TimeUnit.MILLISECONDS);
        return attempt;
    }

    private HttpRequest request(String url, String secret, UUID id, String payload) {
        long timestamp = Instant.now().getEpochSecond();
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "Memoir-Webhooks")
                .header("webhook-id", id.toString())
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", WebhookSigner.signature(secret, id.toString(), timestamp, payload))
                .POST(HttpRequest.BodyPublishers.ofString(payload))
                .build();
    }

    /** The outcome by the status line when one arrived, whatever became of the body; else by what went wrong. */
    private Attempt outcome(int status, Throwable error) {
        if (status >= 200 && status <= 299) {
            return new Attempt(status, null);
        }
        if (status >= 0) {
            return new Attempt(status, "answered " + status);
        }
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof HttpConnectTimeoutException) {
            return new Attempt(null, "could not be connected to within " + timeout.toMillis() + " ms");
        }
        if (cause instanceof TimeoutException
                || cause instanceof HttpTimeoutException
                || cause instanceof CancellationException) {
            return new Attempt(null, "no answer within " + timeout.toMillis() + " ms");
        }
        if (cause instanceof IOException) {
            return new Attempt(null, "could not be reached: " + cause.getClass().getSimpleName());
        }
        return new Attempt(
                null,
                "could not be reached: "
                        + (cause == null ? "unknown" : cause.getClass().getSimpleName()));
    }

    /**
     * Runs the action now and once more a moment later: a job brought forward while the run that started its attempt
     * is still finishing is not yet waiting, and is brought forward by the second call.
     */
    void soonAndAgain(Runnable action) {
        action.run();
        if (running) {
            deadlines.schedule(() -> resolver.execute(action), 500, TimeUnit.MILLISECONDS);
        }
    }

    /** The attempts in flight on this instance. */
    int inFlight() {
        return inFlight.size();
    }

    @Override
    public void start() {
        running = true;
    }

    /**
     * Stops starting attempts and waits for those in flight, each ending within the timeout, so that their outcomes
     * are recorded; whatever is still open after that is cut off (recorded as no answer in time).
     */
    @Override
    public void stop() {
        running = false;
        List<CompletableFuture<Attempt>> open = List.copyOf(inFlight);
        if (!open.isEmpty()) {
            log.info("Waiting up to {} ms for {} webhook deliveries in flight", timeout.toMillis(), open.size());
            try {
                CompletableFuture.allOf(open.toArray(CompletableFuture[]::new))
                        .get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                // Cut off below; each records as no answer in time.
            }
            open.forEach(attempt -> attempt.complete(outcome(-1, new TimeoutException())));
        }
        deadlines.shutdownNow();
        resolver.shutdownNow();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Stops after the job runner (which stops first, being in a later phase) has stopped starting attempts, and
     * before the database goes.
     */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1024;
    }

    private static ThreadFactory daemon(String prefix) {
        AtomicLong count = new AtomicLong();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Reads an answer's body up to a limit and throws it away; past the limit it cancels the subscription, which
     * closes the connection. The body's end, an error or the cut all complete it.
     */
    private static final class BoundedDiscard implements HttpResponse.BodySubscriber<Void> {

        private final CompletableFuture<Void> done = new CompletableFuture<>();
        private final long limit;
        private long read;
        private Flow.Subscription subscription;

        BoundedDiscard(long limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<Void> getBody() {
            return done;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(1);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                read += buffer.remaining();
            }
            if (read > limit) {
                subscription.cancel();
                done.complete(null);
            } else {
                subscription.request(1);
            }
        }

        @Override
        public void onError(Throwable error) {
            done.complete(null);
        }

        @Override
        public void onComplete() {
            done.complete(null);
        }
    }
}
