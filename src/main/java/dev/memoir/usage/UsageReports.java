package dev.memoir.usage;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.memoir.common.jdbc.SqlTimes;
import dev.memoir.common.web.InvalidRequestException;

/**
 * Reads the hourly sums into a report: checks the range, sums by group and interval in the database, and prices the
 * tokens per model.
 */
@Component
class UsageReports {

    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    private final JdbcClient jdbc;
    private final UsageProperties properties;

    UsageReports(JdbcClient jdbc, UsageProperties properties) {
        this.jdbc = jdbc;
        this.properties = properties;
    }

    /** What a report covers; a null tenant is every tenant's (the operator's report), a null user every user's. */
    record Query(UUID tenant, Instant from, Instant to, UsageInterval interval, UsageGrouping groupBy, String userId) {}

    private record Row(Instant start, String key, String model, Sums sums) {}

    private record Sums(long requests, long failed, long prompt, long completion, long counted) {
        Sums plus(Sums other) {
            return new Sums(
                    requests + other.requests,
                    failed + other.failed,
                    prompt + other.prompt,
                    completion + other.completion,
                    counted + other.counted);
        }
    }

    private static final Sums NONE = new Sums(0, 0, 0, 0, 0);

    UsageReport report(Query query, Instant now) {
        UsageInterval interval = query.interval() == null ? UsageInterval.DAY : query.interval();
        UsageGrouping groupBy = query.groupBy() == null ? UsageGrouping.STEP : query.groupBy();
        Instant to = ceilToHour(query.to() == null ? now : query.to());
        Instant from = query.from() == null
                ? to.minus(interval == UsageInterval.DAY ? Duration.ofDays(30) : Duration.ofDays(1))
                : query.from().truncatedTo(ChronoUnit.HOURS);
        if (!from.isBefore(to)) {
            throw new InvalidRequestException("from", "must be before to");
        }
        if (Duration.between(from, to).compareTo(interval.longestRange()) > 0) {
            throw new InvalidRequestException(
                    "from",
                    "is more than " + interval.longestRange().toDays() + " days before to; a report of "
                            + interval.name().toLowerCase() + "s covers at most that");
        }
        List<Row> rows = rows(query, from, to, interval, groupBy);
        return assemble(from, to, interval, groupBy, rows);
    }

    private List<Row> rows(Query query, Instant from, Instant to, UsageInterval interval, UsageGrouping groupBy) {
        StringBuilder sql = new StringBuilder("select date_bin(make_interval(secs => :bin), hour, ")
                .append("timestamptz '2000-01-01 00:00:00+00') as start, ")
                .append(groupBy.column())
                .append(" as key, model, sum(calls) as requests, sum(failed_calls) as failed, ")
                .append("sum(prompt_tokens) as prompt, sum(completion_tokens) as completion, ")
                .append("sum(service_counted) as counted from usage_hours where hour >= :from and hour < :to");
        if (query.tenant() != null) {
            sql.append(" and tenant_id = :tenant");
        }
        if (query.userId() != null) {
            sql.append(" and user_id = :userId");
        }
        sql.append(" group by 1, 2, 3 order by 1");
        JdbcClient.StatementSpec statement = jdbc.sql(sql.toString())
                .param("bin", interval.length().toSeconds())
                .param("from", SqlTimes.timestamptz(from))
                .param("to", SqlTimes.timestamptz(to));
        if (query.tenant() != null) {
            statement = statement.param("tenant", query.tenant());
        }
        if (query.userId() != null) {
            statement = statement.param("userId", query.userId());
        }
        return statement
                .query((rs, n) -> new Row(
                        SqlTimes.instant(rs, "start"),
                        rs.getString("key"),
                        rs.getString("model"),
                        new Sums(
                                rs.getLong("requests"),
                                rs.getLong("failed"),
                                rs.getLong("prompt"),
                                rs.getLong("completion"),
                                rs.getLong("counted"))))
                .list();
    }

    private UsageReport assemble(
            Instant from, Instant to, UsageInterval interval, UsageGrouping groupBy, List<Row> rows) {
        TreeSet<String> unpriced = new TreeSet<>();
        Map<String, Map<String, Sums>> totalByGroupAndModel = new LinkedHashMap<>();
        Map<String, Map<Instant, Map<String, Sums>>> pointsByGroup = new LinkedHashMap<>();
        Map<String, Sums> totalByModel = new TreeMap<>();
        for (Row row : rows) {
            if (!properties.prices().containsKey(row.model())) {
                unpriced.add(row.model());
            }
            totalByModel.merge(row.model(), row.sums(), Sums::plus);
            totalByGroupAndModel
                    .computeIfAbsent(row.key(), key -> new TreeMap<>())
                    .merge(row.model(), row.sums(), Sums::plus);
            pointsByGroup
                    .computeIfAbsent(row.key(), key -> new TreeMap<>())
                    .computeIfAbsent(row.start(), start -> new TreeMap<>())
                    .merge(row.model(), row.sums(), Sums::plus);
        }
        List<UsageReport.Group> groups = new ArrayList<>();
        totalByGroupAndModel.forEach((key, byModel) -> {
            List<UsageReport.Point> series = new ArrayList<>();
            pointsByGroup.get(key).forEach((start, models) -> series.add(new UsageReport.Point(start, totals(models))));
            groups.add(new UsageReport.Group(key, totals(byModel), List.copyOf(series)));
        });
        groups.sort(Comparator.comparingLong((UsageReport.Group g) ->
                        g.total().promptTokens() + g.total().completionTokens())
                .reversed()
                .thenComparing(UsageReport.Group::key));
        return new UsageReport(
                from,
                to,
                interval,
                groupBy,
                properties.currency(),
                UsageReport.COST_NOTE,
                totals(totalByModel),
                List.copyOf(groups),
                List.copyOf(unpriced));
    }

    /** The sums of several models as one, their cost summed over the priced ones. */
    private UsageReport.Totals totals(Map<String, Sums> byModel) {
        Sums sum = NONE;
        BigDecimal cost = null;
        for (Map.Entry<String, Sums> entry : byModel.entrySet()) {
            sum = sum.plus(entry.getValue());
            UsageProperties.Price price = properties.prices().get(entry.getKey());
            if (price != null) {
                BigDecimal modelCost = price.inputPerMillion()
                        .multiply(BigDecimal.valueOf(entry.getValue().prompt()))
                        .add(price.outputPerMillion()
                                .multiply(BigDecimal.valueOf(entry.getValue().completion())))
                        .divide(MILLION, 6, RoundingMode.HALF_UP);
                cost = cost == null ? modelCost : cost.add(modelCost);
            }
        }
        return new UsageReport.Totals(
                sum.requests(), sum.failed(), sum.prompt(), sum.completion(), sum.counted(), cost);
    }

    private static Instant ceilToHour(Instant instant) {
        Instant floor = instant.truncatedTo(ChronoUnit.HOURS);
        return floor.equals(instant) ? floor : floor.plus(Duration.ofHours(1));
    }
}
