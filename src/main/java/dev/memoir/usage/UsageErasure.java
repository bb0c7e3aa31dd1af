package dev.memoir.usage;

import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Takes an erased user's id out of usage: their hourly sums are added to the tenant's sums of no one user and their
 * own rows deleted; their requests' rows are deleted; and requests still held for the next write are written as no
 * one user's ({@link UsageRecorder#forget}).
 */
@Component
class UsageErasure {

    private final JdbcClient jdbc;
    private final UsageRecorder recorder;
    private final BudgetStore budgets;
    private final BudgetBook book;

    UsageErasure(JdbcClient jdbc, UsageRecorder recorder, BudgetStore budgets, BudgetBook book) {
        this.jdbc = jdbc;
        this.recorder = recorder;
        this.budgets = budgets;
        this.book = book;
    }

    void forget(UUID tenant, String userId) {
        recorder.forget(tenant, userId);
        if (budgets.delete(tenant, userId)) {
            book.changed(tenant);
        }
        jdbc.sql("""
                insert into usage_hours as h (tenant_id, hour, user_id, kind, step, model, calls, failed_calls,
                                              prompt_tokens, completion_tokens, service_counted, duration_ms)
                select tenant_id, hour, '', kind, step, model, calls, failed_calls, prompt_tokens, completion_tokens,
                       service_counted, duration_ms
                from usage_hours where tenant_id = :tenant and user_id = :userId
                order by hour, kind, step, model
                on conflict (tenant_id, hour, user_id, kind, step, model) do update set
                    calls = h.calls + excluded.calls,
                    failed_calls = h.failed_calls + excluded.failed_calls,
                    prompt_tokens = h.prompt_tokens + excluded.prompt_tokens,
                    completion_tokens = h.completion_tokens + excluded.completion_tokens,
                    service_counted = h.service_counted + excluded.service_counted,
                    duration_ms = h.duration_ms + excluded.duration_ms""").param("tenant", tenant).param("userId", userId).update();
        jdbc.sql("delete from usage_hours where tenant_id = :tenant and user_id = :userId")
                .param("tenant", tenant)
                .param("userId", userId)
                .update();
        jdbc.sql("delete from usage_calls where tenant_id = :tenant and user_id = :userId")
                .param("tenant", tenant)
                .param("userId", userId)
                .update();
    }
}
