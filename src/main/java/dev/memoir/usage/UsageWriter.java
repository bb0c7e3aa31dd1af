package dev.memoir.usage;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import dev.memoir.common.jdbc.JdbcBatches;
import dev.memoir.common.jdbc.SqlTimes;
import dev.memoir.llm.ModelUsage;

/**
 * Writes a batch of recorded requests in one transaction: each request's row (unless {@code keep-calls} is zero) and
 * its hour's sums, added to what other batches and instances wrote. A request known only by its session is the
 * session's user's.
 */
@Component
class UsageWriter {

    private static final String NO_USER = "";

    private final JdbcBatches batches;
    private final JdbcClient queries;
    private final TransactionTemplate transaction;
    private final boolean keepCalls;

    UsageWriter(JdbcBatches batches, JdbcClient queries, TransactionTemplate transaction, UsageProperties properties) {
        this.batches = batches;
        this.queries = queries;
        this.transaction = transaction;
        this.keepCalls = !properties.keepCalls().isZero();
    }

    /** The sums of one hour's requests of one user, step and model. */
    private record HourKey(UUID tenant, Instant hour, String userId, String kind, String step, String model) {}

    private static final class HourSums {
        long calls;
        long failed;
        long prompt;
        long completion;
        long serviceCounted;
        long durationMs;
    }

    void write(List<RecordedCall> calls) {
        transaction.executeWithoutResult(status -> {
            Map<UUID, String> usersOfSessions = usersOfSessions(calls);
            if (keepCalls) {
                insertCalls(calls, usersOfSessions);
            }
            addToHours(hourSums(calls, usersOfSessions));
        });
    }

    private void insertCalls(List<RecordedCall> calls, Map<UUID, String> usersOfSessions) {
        batches.update(
                """
                insert into usage_calls (tenant_id, id, called_at, user_id, session_id, kind, step, model,
                                         prompt_tokens, completion_tokens, counted_by, duration_ms, failed)
                values (:tenant, :id, :at, :userId, :sessionId, :kind, :step, :model, :prompt, :completion,
                        :countedBy, :durationMs, :failed)
                on conflict do nothing""",
                calls.stream()
                        .map(call -> new MapSqlParameterSource(
                                        "tenant", call.who().tenant())
                                .addValue("id", call.id())
                                .addValue("at", SqlTimes.timestamptz(call.at()))
                                .addValue("userId", userOf(call, usersOfSessions))
                                .addValue("sessionId", call.who().sessionId())
                                .addValue("kind", kind(call.usage()))
                                .addValue("step", call.usage().step())
                                .addValue("model", call.usage().model())
                                .addValue("prompt", call.usage().promptTokens())
                                .addValue("completion", call.usage().completionTokens())
                                .addValue("countedBy", call.usage().countedByServer() ? "server" : "service")
                                .addValue("durationMs", call.usage().duration().toMillis())
                                .addValue("failed", call.usage().failed()))
                        .toList());
    }

    private static Map<HourKey, HourSums> hourSums(List<RecordedCall> calls, Map<UUID, String> usersOfSessions) {
        Map<HourKey, HourSums> hours = new LinkedHashMap<>();
        for (RecordedCall call : calls) {
            String user = userOf(call, usersOfSessions);
            HourSums sums = hours.computeIfAbsent(
                    new HourKey(
                            call.who().tenant(),
                            call.at().truncatedTo(ChronoUnit.HOURS),
                            user == null ? NO_USER : user,
                            kind(call.usage()),
                            call.usage().step(),
                            call.usage().model()),
                    key -> new HourSums());
            ModelUsage usage = call.usage();
            sums.calls++;
            sums.failed += usage.failed() ? 1 : 0;
            sums.prompt += usage.promptTokens();
            sums.completion += usage.completionTokens();
            sums.serviceCounted += usage.failed() || usage.countedByServer() ? 0 : 1;
            sums.durationMs += usage.duration().toMillis();
        }
        return hours;
    }

    private void addToHours(Map<HourKey, HourSums> hours) {
        List<MapSqlParameterSource> rows = new ArrayList<>(hours.size());
        // One order for every writer, so that two instances adding to the same hours never wait on each other
        // in a circle.
        hours.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing((HourKey k) -> k.tenant())
                        .thenComparing(HourKey::hour)
                        .thenComparing(HourKey::userId)
                        .thenComparing(HourKey::kind)
                        .thenComparing(HourKey::step)
                        .thenComparing(HourKey::model)))
                .forEach(entry -> rows.add(new MapSqlParameterSource(
                                "tenant", entry.getKey().tenant())
                        .addValue("hour", SqlTimes.timestamptz(entry.getKey().hour()))
                        .addValue("userId", entry.getKey().userId())
                        .addValue("kind", entry.getKey().kind())
                        .addValue("step", entry.getKey().step())
                        .addValue("model", entry.getKey().model())
                        .addValue("calls", entry.getValue().calls)
                        .addValue("failed", entry.getValue().failed)
                        .addValue("prompt", entry.getValue().prompt)
                        .addValue("completion", entry.getValue().completion)
                        .addValue("serviceCounted", entry.getValue().serviceCounted)
                        .addValue("durationMs", entry.getValue().durationMs)));
        batches.update("""
                insert into usage_hours as h (tenant_id, hour, user_id, kind, step, model, calls, failed_calls,
                                              prompt_tokens, completion_tokens, service_counted, duration_ms)
                values (:tenant, :hour, :userId, :kind, :step, :model, :calls, :failed, :prompt, :completion,
                        :serviceCounted, :durationMs)
                on conflict (tenant_id, hour, user_id, kind, step, model) do update set
                    calls = h.calls + excluded.calls,
                    failed_calls = h.failed_calls + excluded.failed_calls,
                    prompt_tokens = h.prompt_tokens + excluded.prompt_tokens,
                    completion_tokens = h.completion_tokens + excluded.completion_tokens,
                    service_counted = h.service_counted + excluded.service_counted,
                    duration_ms = h.duration_ms + excluded.duration_ms""", rows);
    }

    private static String kind(ModelUsage usage) {
        return usage.kind() == ModelUsage.Kind.CHAT ? "chat" : "embedding";
    }

    private static String userOf(RecordedCall call, Map<UUID, String> usersOfSessions) {
        return call.who().userId() != null
                ? call.who().userId()
                : call.who().sessionId() == null
                        ? null
                        : usersOfSessions.get(call.who().sessionId());
    }

    /** The users of the sessions the batch's requests name without a user, read by tenant. */
    private Map<UUID, String> usersOfSessions(List<RecordedCall> calls) {
        Map<UUID, List<UUID>> sessionsByTenant = calls.stream()
                .filter(call -> call.who().userId() == null && call.who().sessionId() != null)
                .collect(Collectors.groupingBy(
                        call -> call.who().tenant(),
                        Collectors.mapping(call -> call.who().sessionId(), Collectors.toList())));
        Map<UUID, String> users = new HashMap<>();
        sessionsByTenant.forEach((tenant, sessions) -> queries.sql(
                        "select id, user_id from sessions where tenant_id = ? and id = any(?)")
                .params(tenant, sessions.stream().distinct().toArray(UUID[]::new))
                .query((rs, row) -> Map.entry(rs.getObject("id", UUID.class), rs.getString("user_id")))
                .list()
                .forEach(entry -> users.put(entry.getKey(), entry.getValue())));
        return users;
    }
}
