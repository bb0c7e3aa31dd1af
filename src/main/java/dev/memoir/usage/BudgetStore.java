package dev.memoir.usage;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.memoir.common.jdbc.SqlTimes;

/** The budgets and their shared counts (V54). */
@Repository
class BudgetStore {

    private final JdbcClient jdbc;

    BudgetStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The tenant's own budget, if it has one, and one of its user budgets, if it has any. */
    List<Budget> ofTenantAndAnyUser(UUID tenant) {
        return jdbc.sql("""
                        (select * from usage_budgets where tenant_id = :tenant and user_id = '')
                        union all
                        (select * from usage_budgets where tenant_id = :tenant and user_id <> '' limit 1)""").param("tenant", tenant).query(BudgetStore::budget).list();
    }

    /** The tenant's own budget and the user's (when a user is given), as stored now. */
    List<Budget> applying(UUID tenant, String userId) {
        return jdbc.sql("""
                        select * from usage_budgets
                        where tenant_id = ? and (user_id = '' or user_id = ?) order by user_id""")
                .params(tenant, userId == null ? "" : userId)
                .query(BudgetStore::budget)
                .list();
    }

    /** The user a session belongs to. */
    Optional<String> userOfSession(UUID tenant, UUID sessionId) {
        return jdbc.sql("select user_id from sessions where tenant_id = ? and id = ?")
                .params(tenant, sessionId)
                .query(String.class)
                .optional();
    }

    /** The tenant's user budgets after {@code afterUser} (by user id), at most {@code limit}. */
    List<Budget> usersOf(UUID tenant, String afterUser, int limit) {
        return jdbc.sql("""
                        select * from usage_budgets where tenant_id = ? and user_id > ?
                        order by user_id limit ?""")
                .params(tenant, afterUser == null ? Budget.TENANT : afterUser, limit)
                .query(BudgetStore::budget)
                .list();
    }

    Optional<Budget> find(UUID tenant, String userId) {
        return jdbc.sql("select * from usage_budgets where tenant_id = ? and user_id = ?")
                .params(tenant, userId)
                .query(BudgetStore::budget)
                .optional();
    }

    void put(Budget budget) {
        jdbc.sql("""
                        insert into usage_budgets (tenant_id, user_id, period, max_tokens, max_cost, warn_at, policy,
                                                   updated_at)
                        values (:tenant, :user, :period, :tokens, :cost, :warnAt, :policy, :at)
                        on conflict (tenant_id, user_id) do update set
                            period = excluded.period, max_tokens = excluded.max_tokens, max_cost = excluded.max_cost,
                            warn_at = excluded.warn_at, policy = excluded.policy, updated_at = excluded.updated_at""")
                .param("tenant", budget.tenant())
                .param("user", budget.userId())
                .param("period", budget.period().wireName())
                .param("tokens", budget.maxTokens())
                .param("cost", budget.maxCost())
                .param("warnAt", budget.warnAt())
                .param("policy", budget.policy().wireName())
                .param("at", SqlTimes.timestamptz(budget.updatedAt()))
                .update();
    }

    /**
     * Starts the count of a budget set in the middle of its period from the usage already recorded in it (what the
     * instances hold unwritten, at most {@code memoir.usage.flush-every}'s worth, is not in it); a count already
     * running is kept. A budget raised above what is used tells its warning (or its end) again when it is reached again.
     */
    void startCount(Budget budget, Instant periodStart, UsageProperties properties) {
        String user = budget.ofTenant() ? null : budget.userId();
        List<ModelTokens> used = jdbc.sql("""
                        select model, sum(prompt_tokens) as prompt, sum(completion_tokens) as completion
                        from usage_hours
                        where tenant_id = :tenant and kind = 'chat' and hour >= :start
                          and (cast(:user as text) is null or user_id = :user)
                        group by model""")
                .param("tenant", budget.tenant())
                .param("start", SqlTimes.timestamptz(periodStart))
                .param("user", user)
                .query((rs, row) ->
                        new ModelTokens(rs.getString("model"), rs.getLong("prompt"), rs.getLong("completion")))
                .list();
        long tokens = used.stream().mapToLong(m -> m.prompt() + m.completion()).sum();
        BigDecimal cost = used.stream()
                .map(m -> properties.cost(m.model(), m.prompt(), m.completion()))
                .reduce(BigDecimal.ZERO, BigDecimal::add);
        jdbc.sql("""
                        insert into usage_budget_spend (tenant_id, user_id, period, period_start, tokens, cost)
                        values (:tenant, :user, :period, :start, :tokens, :cost)
                        on conflict (tenant_id, user_id, period, period_start) do nothing""")
                .param("tenant", budget.tenant())
                .param("user", budget.userId())
                .param("period", budget.period().wireName())
                .param("start", SqlTimes.timestamptz(periodStart))
                .param("tokens", tokens)
                .param("cost", cost)
                .update();
        Budget.Standing standing = standings(List.of(budget), periodStart).getFirst();
        jdbc.sql("""
                        update usage_budget_spend
                        set warned = warned and :warning, exhausted = exhausted and :exhausted
                        where tenant_id = :tenant and user_id = :user and period = :period and period_start = :start""")
                .param("warning", standing.warning())
                .param("exhausted", standing.exhausted())
                .param("tenant", budget.tenant())
                .param("user", budget.userId())
                .param("period", budget.period().wireName())
                .param("start", SqlTimes.timestamptz(periodStart))
                .update();
    }

    private record ModelTokens(String model, long prompt, long completion) {}

    /** Deletes a budget and its counts; true when there was one. */
    boolean delete(UUID tenant, String userId) {
        jdbc.sql("delete from usage_budget_spend where tenant_id = ? and user_id = ?")
                .params(tenant, userId)
                .update();
        jdbc.sql("delete from usage_budget_holds where tenant_id = ? and user_id = ?")
                .params(tenant, userId)
                .update();
        return jdbc.sql("delete from usage_budgets where tenant_id = ? and user_id = ?")
                        .params(tenant, userId)
                        .update()
                > 0;
    }

    /** The counts of these budgets in the periods that hold {@code now}. */
    List<Budget.Standing> standings(List<Budget> budgets, Instant now) {
        List<Budget.Standing> standings = new ArrayList<>(budgets.size());
        for (Budget budget : budgets) {
            Instant start = budget.period().start(now);
            standings.add(jdbc.sql("""
                            select tokens, cost from usage_budget_spend
                            where tenant_id = ? and user_id = ? and period = ? and period_start = ?""")
                    .params(budget.tenant(), budget.userId(), budget.period().wireName(), SqlTimes.timestamptz(start))
                    .query((rs, row) ->
                            new Budget.Standing(budget, start, rs.getLong("tokens"), rs.getBigDecimal("cost")))
                    .optional()
                    .orElseGet(() -> new Budget.Standing(budget, start, 0, BigDecimal.ZERO)));
        }
        return standings;
    }

    /**
     * The counts of these budgets, and with them what the requests in flight on every instance may still add to
     * them (their holds), each count locked until the caller's transaction ends: of two instances admitting a
     * request of the tenant at once, the second sees the first's hold.
     */
    /** A budget's count as it stands, and with the holds of the requests in flight added. */
    record Locked(Budget.Standing counted, Budget.Standing withHolds) {}

    List<Locked> lockedStandings(List<Budget> budgets, Instant now) {
        List<Locked> standings = new ArrayList<>(budgets.size());
        for (Budget budget : budgets) {
            Instant start = budget.period().start(now);
            Object[] key = {budget.tenant(), budget.userId(), budget.period().wireName(), SqlTimes.timestamptz(start)};
            jdbc.sql("""
                            insert into usage_budget_spend (tenant_id, user_id, period, period_start, tokens, cost)
                            values (?, ?, ?, ?, 0, 0)
                            on conflict (tenant_id, user_id, period, period_start) do nothing""").params(key).update();
            Budget.Standing counted = jdbc.sql("""
                            select tokens, cost from usage_budget_spend
                            where tenant_id = ? and user_id = ? and period = ? and period_start = ?
                            for update""")
                    .params(key)
                    .query((rs, row) ->
                            new Budget.Standing(budget, start, rs.getLong("tokens"), rs.getBigDecimal("cost")))
                    .single();
            Budget.Standing held = jdbc.sql("""
                            select coalesce(sum(tokens), 0) as tokens, coalesce(sum(cost), 0) as cost
                            from usage_budget_holds
                            where tenant_id = ? and user_id = ? and period = ? and period_start = ? and expires_at > now()""")
                    .params(key)
                    .query((rs, row) ->
                            new Budget.Standing(budget, start, rs.getLong("tokens"), rs.getBigDecimal("cost")))
                    .single();
            standings.add(new Locked(
                    counted,
                    new Budget.Standing(
                            budget,
                            start,
                            counted.tokens() + held.tokens(),
                            counted.cost().add(held.cost()))));
        }
        return standings;
    }

    /** Holds the most a request admitted now may add to the budget's count, until it is released or expires. */
    void hold(UUID id, Budget budget, Instant now, long tokens, BigDecimal cost, Instant expiresAt) {
        jdbc.sql("""
                        insert into usage_budget_holds (tenant_id, id, user_id, period, period_start, tokens, cost,
                                                        expires_at)
                        values (?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(
                        budget.tenant(),
                        id,
                        budget.userId(),
                        budget.period().wireName(),
                        SqlTimes.timestamptz(budget.period().start(now)),
                        tokens,
                        cost,
                        SqlTimes.timestamptz(expiresAt))
                .update();
    }

    /** Releases a request's holds (it was counted), and any of the tenant's holds left by an instance that died. */
    void release(UUID tenant, UUID id) {
        jdbc.sql("delete from usage_budget_holds where tenant_id = ? and (id = ? or expires_at < now())")
                .params(tenant, id)
                .update();
    }

    /** A count after a request was added to it, and whether this addition is the first to cross each threshold. */
    record Added(Budget.Standing standing, boolean firstWarning, boolean firstExhausted) {}

    /** Adds a request to the budget's count in the current period, in the caller's transaction. */
    Added add(Budget budget, Instant now, long tokens, BigDecimal cost) {
        Instant start = budget.period().start(now);
        Budget.Standing after = jdbc.sql("""
                        insert into usage_budget_spend as s (tenant_id, user_id, period, period_start, tokens, cost)
                        values (:tenant, :user, :period, :start, :tokens, :cost)
                        on conflict (tenant_id, user_id, period, period_start) do update
                            set tokens = s.tokens + excluded.tokens, cost = s.cost + excluded.cost
                        returning tokens, cost""")
                .param("tenant", budget.tenant())
                .param("user", budget.userId())
                .param("period", budget.period().wireName())
                .param("start", SqlTimes.timestamptz(start))
                .param("tokens", tokens)
                .param("cost", cost)
                .query((rs, row) -> new Budget.Standing(budget, start, rs.getLong("tokens"), rs.getBigDecimal("cost")))
                .single();
        boolean firstWarning = after.warning() && mark(budget, start, "warned");
        boolean firstExhausted = after.exhausted() && mark(budget, start, "exhausted");
        return new Added(after, firstWarning, firstExhausted);
    }

    /** Sets the flag unless it is set: true for the one caller of all instances that set it. */
    private boolean mark(Budget budget, Instant start, String flag) {
        // flag is one of two column names of this class's own, never a client's text.
        return jdbc.sql("update usage_budget_spend set " + flag + " = true where tenant_id = ? and user_id = ? "
                                + "and period = ? and period_start = ? and not " + flag)
                        .params(
                                budget.tenant(),
                                budget.userId(),
                                budget.period().wireName(),
                                SqlTimes.timestamptz(start))
                        .update()
                > 0;
    }

    private static Budget budget(ResultSet rs, int row) throws SQLException {
        return new Budget(
                rs.getObject("tenant_id", UUID.class),
                rs.getString("user_id"),
                BudgetPeriod.fromWireName(rs.getString("period")),
                rs.getObject("max_tokens", Long.class),
                rs.getBigDecimal("max_cost"),
                rs.getDouble("warn_at"),
                BudgetPolicy.ofWireName(rs.getString("policy")),
                SqlTimes.instant(rs, "updated_at"));
    }
}
