package dev.memoir.tenant;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * The writing requests this instance works on at once ({@link TenantLimits#concurrentWrites()}), shared fairly
 * among tenants. A tenant alone may use up to {@link TenantLimits#tenantWrites()} places, most of the instance, and
 * the others stay free for other tenants however long its requests take, since a running request is never cut
 * short. Beyond that, or once places run out, requests wait, and each place that frees goes to the waiting tenant
 * with the fewest requests running, between equals the one served longest ago (each tenant's own requests in
 * order). So a quiet tenant starts at once or waits for one place to free, however many requests a busy tenant has
 * queued. A request that waits longer than {@link TenantLimits#maxWait()}, or one more than
 * {@link TenantLimits#maxWaiting()} of its tenant, is refused (429).
 *
 * <p>Reads are not counted: they are cheap, and a client polling its memory must never wait behind its writes.
 * The count is per instance: what it protects (the cores that embed, the model server's slots this instance's
 * requests occupy) is per instance too, and counting in the database would cost every write a round trip.
 */
@Component
class FairWriteQueue {

    /** What a request holds while it runs; released once, however often {@link #release} is called. */
    static final class Place {
        private final FairWriteQueue queue;
        private final Lane lane;
        private final AtomicBoolean released = new AtomicBoolean();

        private Place(FairWriteQueue queue, Lane lane) {
            this.queue = queue;
            this.lane = lane;
        }

        void release() {
            if (released.compareAndSet(false, true)) {
                queue.free(lane);
            }
        }
    }

    /** One tenant's requests: how many run, those waiting (oldest first), and when it last got a place. */
    private static final class Lane {
        final UUID tenant;
        int running;
        long lastServed = -1;
        final ArrayDeque<Waiter> waiting = new ArrayDeque<>();

        Lane(UUID tenant) {
            this.tenant = tenant;
        }
    }

    private record Waiter(CompletableFuture<Place> granted) {}

    private final TenantLimits limits;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<UUID, Lane> lanes = new HashMap<>();
    private int running;
    private int waiting;
    private long grants;

    FairWriteQueue(TenantLimits limits, MeterRegistry meters) {
        this.limits = limits;
        Gauge.builder("memoir.writes.running", this, FairWriteQueue::running)
                .description("Writing requests this instance works on")
                .register(meters);
        Gauge.builder("memoir.writes.waiting", this, FairWriteQueue::waiting)
                .description("Writing requests waiting for their turn")
                .register(meters);
    }

    int running() {
        lock.lock();
        try {
            return running;
        } finally {
            lock.unlock();
        }
    }

    int waiting() {
        lock.lock();
        try {
            return waiting;
        } finally {
            lock.unlock();
        }
    }

    static boolean counts(String method) {
        return switch (method) {
            case "POST", "PUT", "PATCH", "DELETE" -> true;
            default -> false;
        };
    }

    /**
     * A place for one of the tenant's requests, at once if the instance has room and nobody waits, else when its
     * turn comes; null when its tenant already has {@code maxWaiting} requests waiting, or it waited
     * {@code maxWait} in vain.
     */
    Place acquire(TenantId tenant) throws InterruptedException {
        Waiter waiter;
        lock.lock();
        try {
            Lane lane = lanes.computeIfAbsent(tenant.value(), Lane::new);
            // A free place here means no waiting tenant may take it (each is at its own bound): a tenant whose own
            // requests do not wait takes it, within its bound.
            if (lane.waiting.isEmpty() && running < limits.concurrentWrites() && underItsBound(lane)) {
                return admit(lane);
            }
            if (lane.waiting.size() >= limits.maxWaiting()) {
                forgetIfIdle(lane);
                return null;
            }
            waiter = new Waiter(new CompletableFuture<>());
            lane.waiting.addLast(waiter);
            waiting++;
        } finally {
            lock.unlock();
        }
        try {
            return waiter.granted().get(limits.maxWait().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return giveUp(tenant, waiter);
        } catch (InterruptedException e) {
            Place place = giveUp(tenant, waiter);
            if (place != null) {
                place.release();
            }
            throw e;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Leaves the queue, unless a place was granted meanwhile: then the request keeps it. */
    private Place giveUp(TenantId tenant, Waiter waiter) {
        lock.lock();
        try {
            Lane lane = lanes.get(tenant.value());
            if (lane != null && lane.waiting.remove(waiter)) {
                waiting--;
                forgetIfIdle(lane);
                return null;
            }
        } finally {
            lock.unlock();
        }
        return waiter.granted().join();
    }

    private void free(Lane lane) {
        lock.lock();
        try {
            lane.running--;
            running--;
            while (waiting > 0 && running < limits.concurrentWrites()) {
                Lane next = nextInTurn();
                if (next == null) {
                    break;
                }
                Waiter waiter = next.waiting.removeFirst();
                waiting--;
                waiter.granted().complete(admit(next));
            }
            forgetIfIdle(lane);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The waiting tenant with the fewest requests running, between equals the one served longest ago; null when
     * every waiting tenant runs as many as it may.
     */
    private Lane nextInTurn() {
        Lane best = null;
        for (Lane lane : lanes.values()) {
            if (lane.waiting.isEmpty() || !underItsBound(lane)) {
                continue;
            }
            if (best == null
                    || lane.running < best.running
                    || lane.running == best.running && lane.lastServed < best.lastServed) {
                best = lane;
            }
        }
        return best;
    }

    private boolean underItsBound(Lane lane) {
        return lane.running < limits.tenantWrites();
    }

    private Place admit(Lane lane) {
        lane.running++;
        lane.lastServed = grants++;
        running++;
        return new Place(this, lane);
    }

    private void forgetIfIdle(Lane lane) {
        if (lane.running == 0 && lane.waiting.isEmpty()) {
            lanes.remove(lane.tenant);
        }
    }

    long retryAfterSeconds() {
        return Math.max(1, limits.retryAfter().toSeconds());
    }

    Duration maxWait() {
        return limits.maxWait();
    }
}
