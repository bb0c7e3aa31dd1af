package dev.memoir.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Writing requests share the instance: a tenant alone uses all of it, tenants in competition take turns. */
class FairWriteQueueTest {

    private final TenantId busy = new TenantId(UUID.randomUUID());
    private final TenantId quiet = new TenantId(UUID.randomUUID());
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private static FairWriteQueue queue(int places, Duration maxWait, int maxWaiting) {
        return queue(places, places, maxWait, maxWaiting);
    }

    private static FairWriteQueue queue(int places, int tenantPlaces, Duration maxWait, int maxWaiting) {
        return new FairWriteQueue(
                new TenantLimits(places, tenantPlaces, maxWait, maxWaiting, Duration.ofSeconds(2)),
                new SimpleMeterRegistry());
    }

    /** Asks for a place on a thread of its own, and returns once the request runs or waits in the queue. */
    private CompletableFuture<FairWriteQueue.Place> ask(FairWriteQueue queue, TenantId tenant) {
        int before = queue.running() + queue.waiting();
        CompletableFuture<FairWriteQueue.Place> asked = new CompletableFuture<>();
        threads.submit(() -> {
            try {
                asked.complete(queue.acquire(tenant));
            } catch (Throwable e) {
                asked.completeExceptionally(e);
            }
        });
        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .until(() -> asked.isDone() || queue.running() + queue.waiting() > before);
        return asked;
    }

    @Test
    void aTenantAloneUsesEveryPlaceAndWaitsOnlyBeyondThem() throws Exception {
        FairWriteQueue queue = queue(3, Duration.ofSeconds(10), 10);
        List<FairWriteQueue.Place> places = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            places.add(queue.acquire(busy));
        }
        assertThat(places).doesNotContainNull();

        CompletableFuture<FairWriteQueue.Place> fourth = ask(queue, busy);
        assertThat(fourth).isNotDone();
        assertThat(queue.waiting()).isEqualTo(1);

        places.getFirst().release();
        assertThat(fourth.get()).isNotNull();
        assertThat(queue.running()).isEqualTo(3);
        assertThat(queue.waiting()).isZero();
    }

    @Test
    void aFreedPlaceGoesToTheWaitingTenantWithFewestRequestsRunningNotToTheBusyTenantsOlderRequests() throws Exception {
        FairWriteQueue queue = queue(2, Duration.ofSeconds(10), 50);
        FairWriteQueue.Place first = queue.acquire(busy);
        FairWriteQueue.Place second = queue.acquire(busy);
        List<CompletableFuture<FairWriteQueue.Place>> busyWaiting = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            busyWaiting.add(ask(queue, busy));
        }
        CompletableFuture<FairWriteQueue.Place> quietOne = ask(queue, quiet);
        assertThat(quietOne).isNotDone();

        first.release();

        assertThat(quietOne.get())
                .as("the quiet tenant's request, after one place freed")
                .isNotNull();
        assertThat(busyWaiting).allMatch(waiting -> !waiting.isDone());

        second.release();
        assertThat(busyWaiting.getFirst().get())
                .as("then the busy tenant's oldest request")
                .isNotNull();
        assertThat(busyWaiting.subList(1, busyWaiting.size())).allMatch(waiting -> !waiting.isDone());
    }

    @Test
    void twoBusyTenantsTakeTurns() throws Exception {
        FairWriteQueue queue = queue(1, Duration.ofSeconds(10), 50);
        FairWriteQueue.Place running = queue.acquire(busy);
        List<CompletableFuture<FairWriteQueue.Place>> busyWaiting = new ArrayList<>();
        List<CompletableFuture<FairWriteQueue.Place>> otherWaiting = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            busyWaiting.add(ask(queue, busy));
        }
        for (int i = 0; i < 3; i++) {
            otherWaiting.add(ask(queue, quiet));
        }

        List<String> order = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            running.release();
            int turn = i;
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> queue.running() == 1);
            CompletableFuture<FairWriteQueue.Place> next = busyWaiting.stream()
                    .filter(CompletableFuture::isDone)
                    .filter(done -> !order.contains("busy" + busyWaiting.indexOf(done)))
                    .findFirst()
                    .orElse(null);
            if (next != null) {
                order.add("busy" + busyWaiting.indexOf(next));
            } else {
                next = otherWaiting.stream()
                        .filter(CompletableFuture::isDone)
                        .filter(done -> !order.contains("quiet" + otherWaiting.indexOf(done)))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("nobody got turn " + turn));
                order.add("quiet" + otherWaiting.indexOf(next));
            }
            running = next.get();
        }

        // Each freed place goes to a tenant with none running: the one served longest ago.
        assertThat(order).containsExactly("quiet0", "busy0", "quiet1", "busy1", "quiet2", "busy2");
    }

    @Test
    void aTenantRunsAtMostItsBoundSoThatAnotherTenantStartsAtOnceHoweverLongTheFirstOnesRequestsTake()
            throws Exception {
        FairWriteQueue queue = queue(4, 3, Duration.ofSeconds(10), 10);
        for (int i = 0; i < 3; i++) {
            assertThat(queue.acquire(busy)).isNotNull();
        }
        CompletableFuture<FairWriteQueue.Place> fourth = ask(queue, busy);
        assertThat(fourth)
                .as("the busy tenant's fourth, though a place is free")
                .isNotDone();

        CompletableFuture<FairWriteQueue.Place> quietOne = ask(queue, quiet);
        assertThat(quietOne).isDone();
        assertThat(quietOne.get()).as("the quiet tenant's request, at once").isNotNull();

        quietOne.get().release();
        assertThat(fourth)
                .as("the place the quiet tenant left is not the busy tenant's to take")
                .isNotDone();
    }

    @Test
    void aTenantAtItsBoundGetsTheNextPlaceWhenOneOfItsOwnRequestsEnds() throws Exception {
        FairWriteQueue queue = queue(4, 2, Duration.ofSeconds(10), 10);
        FairWriteQueue.Place first = queue.acquire(busy);
        queue.acquire(busy);
        CompletableFuture<FairWriteQueue.Place> third = ask(queue, busy);
        assertThat(third).isNotDone();

        first.release();

        assertThat(third.get()).isNotNull();
        assertThat(queue.running()).isEqualTo(2);
    }

    @Test
    void aRequestThatFindsNoTurnWithinMaxWaitIsRefusedAndLeavesTheQueue() throws Exception {
        FairWriteQueue queue = queue(1, Duration.ofMillis(100), 10);
        FairWriteQueue.Place held = queue.acquire(busy);

        assertThat(queue.acquire(quiet)).isNull();
        assertThat(queue.waiting()).isZero();

        held.release();
        assertThat(queue.running()).isZero();
        assertThat(queue.acquire(quiet))
                .as("the place is free again, nobody left waiting")
                .isNotNull();
    }

    @Test
    void oneRequestMoreThanItsTenantMayHaveWaitingIsRefusedAtOnceWhileOtherTenantsStillQueue() throws Exception {
        FairWriteQueue queue = queue(1, Duration.ofSeconds(10), 2);
        queue.acquire(busy);
        ask(queue, busy);
        ask(queue, busy);

        long started = System.nanoTime();
        assertThat(queue.acquire(busy)).isNull();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(ask(queue, quiet)).isNotDone();
        assertThat(queue.waiting()).isEqualTo(3);
    }

    @Test
    void aPlaceReleasedTwiceFreesOnePlace() throws Exception {
        FairWriteQueue queue = queue(2, Duration.ofSeconds(10), 10);
        FairWriteQueue.Place place = queue.acquire(busy);
        queue.acquire(busy);

        place.release();
        place.release();

        assertThat(queue.running()).isEqualTo(1);
    }
}
