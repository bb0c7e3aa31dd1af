package dev.memoir.common.audit;

import java.util.UUID;
import java.util.function.Supplier;

/**
 * Who is acting on this thread, for the audit trail: an API key ({@code key:<id>}), the operator, a job
 * ({@code job:<type>}), or Memoir itself. The authentication filter and the job runner open it; work handed to
 * another thread (a streamed reply, a streamed export) carries it with {@link #carried}. Scopes close in the reverse
 * order of opening (try-with-resources).
 */
public final class AuditActor implements AutoCloseable {

    /** What is recorded when nobody opened a scope: Memoir's own work outside any request or job. */
    public static final String MEMOIR = "memoir";

    public static final String OPERATOR = "operator";

    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    private final String previous;

    private AuditActor(String previous) {
        this.previous = previous;
    }

    public static AuditActor open(String actor) {
        AuditActor scope = new AuditActor(CURRENT.get());
        CURRENT.set(actor);
        return scope;
    }

    public static String key(UUID keyId) {
        return "key:" + keyId;
    }

    public static String job(String type) {
        return "job:" + type;
    }

    public static String current() {
        String actor = CURRENT.get();
        return actor == null ? MEMOIR : actor;
    }

    /** Does the work as the actor. */
    public static <T> T as(String actor, Supplier<T> work) {
        try (AuditActor scope = open(actor)) {
            return work.get();
        }
    }

    /** Does the work as the actor. */
    public static void runAs(String actor, Runnable work) {
        try (AuditActor scope = open(actor)) {
            work.run();
        }
    }

    /** The work, to be run on another thread as the actor of this one. */
    public static <T> Supplier<T> carried(Supplier<T> work) {
        String actor = current();
        return () -> {
            try (AuditActor scope = open(actor)) {
                return work.get();
            }
        };
    }

    /** The work, to be run on another thread as the actor of this one. */
    public static Runnable carried(Runnable work) {
        String actor = current();
        return () -> {
            try (AuditActor scope = open(actor)) {
                work.run();
            }
        };
    }

    @Override
    public void close() {
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }
}
