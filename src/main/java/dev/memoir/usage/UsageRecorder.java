package dev.memoir.usage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.memoir.common.usage.UsageScope;
import dev.memoir.llm.ModelUsage;
import dev.memoir.llm.ModelUsageListener;

/**
 * Records every model request's usage for whom the thread's {@link UsageScope} says it was, without a database write
 * on the request's path: requests are held in memory and written in one batch every {@code memoir.usage.flush-every}
 * ({@link UsageWriter}), and once more when the service stops (after the job runner and the web server, whose last
 * requests it takes). A batch that cannot be written is kept for the next write. A request of no tenant (the service's own
 * upkeep) is counted by the meters only.
 */
@Component
class UsageRecorder implements ModelUsageListener, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(UsageRecorder.class);

    private final UsageWriter writer;
    private final UsageProperties properties;
    private final MeterRegistry meters;
    private final BudgetCounter budgets;
    private final ConcurrentLinkedQueue<RecordedCall> held = new ConcurrentLinkedQueue<>();
    private final AtomicInteger heldCount = new AtomicInteger();
    private final Object writing = new Object();
    /** Users erased while requests of theirs were held: those are written as no one user's. */
    private final Set<UsageScope.Attribution> forgotten = ConcurrentHashMap.newKeySet();

    private ScheduledExecutorService flusher;

    UsageRecorder(UsageWriter writer, UsageProperties properties, MeterRegistry meters, BudgetCounter budgets) {
        this.writer = writer;
        this.properties = properties;
        this.meters = meters;
        this.budgets = budgets;
    }

    @Override
    public void used(ModelUsage usage) {
        UsageScope.Attribution who = UsageScope.current().orElse(null);
        count(usage, who);
        if (who == null) {
            return;
        }
        held.add(new RecordedCall(UUID.randomUUID(), Instant.now(), who, usage));
        if (heldCount.incrementAndGet() > properties.bufferLimit()) {
            if (held.poll() != null) {
                heldCount.decrementAndGet();
                meters.counter("memoir.usage.dropped").increment();
            }
        }
        try {
            budgets.count(who, usage);
        } catch (RuntimeException e) {
            // The request was made; only the budget's count misses it.
            log.warn("Could not add a {} request to its budget's count: {}", usage.step(), e.toString());
        }
    }

    /** Writes what is held now; what cannot be written stays held. */
    void flush() {
        synchronized (writing) {
            // Erasures told before this write: theirs are all held now or written already.
            Set<UsageScope.Attribution> erased = Set.copyOf(forgotten);
            List<RecordedCall> batch = new ArrayList<>();
            for (RecordedCall call; (call = held.poll()) != null; ) {
                heldCount.decrementAndGet();
                batch.add(call);
            }
            if (batch.isEmpty()) {
                forgotten.removeAll(erased);
                return;
            }
            if (!erased.isEmpty()) {
                batch.replaceAll(call -> withoutErasedUser(call, erased));
            }
            try {
                writer.write(batch);
                forgotten.removeAll(erased);
            } catch (RuntimeException e) {
                log.warn(
                        "Could not record the usage of {} model requests; trying again later: {}",
                        batch.size(),
                        e.toString());
                for (RecordedCall call : batch) {
                    held.add(call);
                    heldCount.incrementAndGet();
                }
            }
        }
    }

    /** An erased user's held requests are written as no one user's (the erasure has done the same to the rest). */
    void forget(UUID tenant, String userId) {
        forgotten.add(new UsageScope.Attribution(tenant, userId, null));
    }

    private static RecordedCall withoutErasedUser(RecordedCall call, Set<UsageScope.Attribution> erased) {
        UsageScope.Attribution who = call.who();
        if (who.userId() != null && erased.contains(new UsageScope.Attribution(who.tenant(), who.userId(), null))) {
            return new RecordedCall(
                    call.id(), call.at(), new UsageScope.Attribution(who.tenant(), null, null), call.usage());
        }
        return call;
    }

    private void count(ModelUsage usage, UsageScope.Attribution who) {
        Tags tags = Tags.of("step", usage.step(), "model", usage.model());
        if (properties.metricsTenantTag()) {
            tags = tags.and("tenant", who == null ? "none" : who.tenant().toString());
        }
        meters.counter("memoir.usage.requests", tags.and("outcome", usage.failed() ? "error" : "success"))
                .increment();
        if (!usage.failed()) {
            meters.counter("memoir.usage.tokens", tags.and("type", "prompt")).increment(usage.promptTokens());
            meters.counter("memoir.usage.tokens", tags.and("type", "completion"))
                    .increment(usage.completionTokens());
        }
    }

    @Override
    public synchronized void start() {
        if (flusher == null) {
            flusher = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "usage-flush");
                thread.setDaemon(true);
                return thread;
            });
            long every = properties.flushEvery().toMillis();
            flusher.scheduleWithFixedDelay(this::flushQuietly, every, every, TimeUnit.MILLISECONDS);
        }
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (RuntimeException e) {
            log.warn("Usage flush failed: {}", e.toString());
        }
    }

    @Override
    public synchronized void stop() {
        if (flusher != null) {
            flusher.shutdown();
            flusher = null;
            flush();
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return flusher != null;
    }

    /**
     * Stops after the job runner (the default phase) and the web server (2048 below it): the requests of the jobs and
     * of the HTTP requests they let finish are written too.
     */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }
}
