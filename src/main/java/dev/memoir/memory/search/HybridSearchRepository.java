package dev.memoir.memory.search;

import static dev.memoir.memory.store.SqlValues.uuidArray;
import static dev.memoir.memory.store.SqlValues.uuids;
import static dev.memoir.memory.store.SqlValues.vector;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.memoir.common.jdbc.SqlTimes;
import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.MemoryScreening;
import dev.memoir.memory.api.MemorySearch;
import dev.memoir.memory.api.MemorySource;
import dev.memoir.memory.api.MemoryView;
import dev.memoir.memory.api.Provenance;
import dev.memoir.memory.api.SearchExplanation;
import dev.memoir.memory.api.SearchMode;
import dev.memoir.memory.api.Speaker;
import dev.memoir.memory.api.Trust;

/**
 * Hybrid memory search in one SQL statement: a dense ranking (cosine distance on the HNSW index) and a full-text
 * ranking (the query's words OR-ed, on the GIN index) of the same user's memories, fused by reciprocal rank.
 * Tenant, user and every filter apply inside both rankings, so no other user's row is ever ranked or returned.
 * Because the words are OR-ed, a memory sharing one common word with the question gets a lexical rank too; by
 * default its rank counts only in proportion to the share of the query's word rarity it holds, which ranks the
 * right memory higher than plain fusion does (docs/benchmarks.md#retrieval-quality).
 *
 * <p>The plan matters more than the SQL: a cached generic plan cannot know whether the user has forty memories
 * (an exact scan of them is cheapest and exact) or a hundred thousand (the HNSW index is the only fast way), so
 * the statement is always planned for its actual values, and the query vector is bound as a {@code vector}, not
 * as text that a generic plan would parse again for every row. Planned for its tenant and user, every part of the
 * statement, the final join included, reads only the partition that holds that user (V27). Only the best
 * {@code limit} fused candidates are joined back to their rows: where a partition has no statistics yet, the
 * planner may look each one up through the user's index instead of the key, and then each costs a scan of the
 * user's rows.
 *
 * <p>A question that names a month with its year ({@link QueryPeriod}) gets a third ranking: the memories whose
 * dialogue began in that period, nearest first, fused like the other two, so that "What did Melanie buy in October
 * 2022?" finds the October purchase that neither the words nor the embedding can tell from the others. "Began in",
 * not "overlaps": a range of the user's time index, ranked exactly, where an overlap could only be found by the
 * HNSW scan filtering its way through the user's other months (docs/benchmarks.md#retrieval-quality). Without
 * such a month the period is null, the ranking's conditions fold to false and PostgreSQL does not scan for it.
 */
@Repository
public class HybridSearchRepository {

    private final JdbcClient jdbc;
    private final SearchProperties properties;
    private final SearchSettings settings;
    private final String sql;

    public HybridSearchRepository(JdbcClient jdbc, SearchProperties properties, SearchSettings settings) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.settings = settings;
        this.sql = SearchStatement.of(properties);
    }

    /** A found memory with its cosine similarity (null for a vector of another model) and its ranking. */
    public record Hit(MemoryView memory, Double similarity, SearchExplanation explanation) {}

    /** Must run inside a transaction: the planner settings below hold for it only. */
    public List<Hit> search(MemorySearch search, String model) {
        Prepared prepared = prepare(search, model);
        return jdbc.sql(prepared.sql())
                .paramSource(prepared.params())
                .query((rs, row) -> hit(rs))
                .list();
    }

    /**
     * The user's newest memories passing the search's filters (its query is not used), after a position when one is
     * given: the memories created before {@code beforeCreatedAt}, or at that instant with a lower id. Each page
     * continues the index scan on (created_at, id) where the last one stopped.
     */
    public List<MemoryView> newest(MemorySearch filters, Instant beforeCreatedAt, UUID beforeId) {
        MapSqlParameterSource params = filterParams(filters)
                .addValue("limit", filters.limit())
                .addValue("beforeCreatedAt", timestamp(beforeCreatedAt))
                .addValue("beforeId", beforeId);
        // Two statements rather than one with "is null or": the position must be an index condition in every plan.
        String after = beforeCreatedAt == null
                ? ""
                : " and (m.created_at, m.id) < (cast(:beforeCreatedAt as timestamptz), cast(:beforeId as uuid))";
        return jdbc.sql("""
                select %s, null as similarity, null as dense_rank,
                       null as dense_score, null as lexical_rank, null as lexical_score,
                       null as lexical_coverage, null as period_rank, null as recency_rank, 0 as fused_score,
                       null as passage,
                       null as passage_start, null as passage_end
                from memory_records m
                where %s%s
                order by m.created_at desc, m.id desc
                limit :limit""".formatted(SearchStatement.COLUMNS, SearchStatement.FILTERS, after))
                .paramSource(params)
                .query((rs, row) -> hit(rs).memory())
                .list();
    }

    /** The plan PostgreSQL chooses for a search, for tests and benchmarks; inside a transaction like search. */
    public List<String> plan(MemorySearch search, String model) {
        Prepared prepared = prepare(search, model);
        return jdbc.sql("explain " + prepared.sql())
                .paramSource(prepared.params())
                .query(String.class)
                .list();
    }

    private record Prepared(String sql, MapSqlParameterSource params) {}

    /** The rankings the search uses: its own choice, or the configured default. */
    public SearchMode mode(MemorySearch search) {
        return search.mode() != null ? search.mode() : properties.mode();
    }

    private Prepared prepare(MemorySearch search, String model) {
        SearchMode mode = mode(search);
        int candidates = Math.max(search.limit(), properties.candidates());
        int denseCandidates = mode.usesDense() ? candidates : 0;
        int lexicalCandidates = mode.usesLexical()
                        && search.query().text() != null
                        && !search.query().text().isBlank()
                ? candidates
                : 0;
        // A third ranking, in hybrid search only: the memories of the months the question names, nearest first.
        QueryPeriod period = mode.usesDense() && mode.usesLexical() && properties.periodWeight() > 0
                ? QueryPeriod.in(search.query().text()).orElse(null)
                : null;
        MapSqlParameterSource params = filterParams(search)
                .addValue("vector", vector(search.query().embedding()))
                .addValue("model", model)
                .addValue(
                        "text",
                        search.query().text() == null ? "" : search.query().text())
                .addValue("normalization", properties.lexicalNormalization())
                .addValue("denseCandidates", denseCandidates)
                .addValue("lexicalCandidates", lexicalCandidates)
                .addValue("denseWeight", properties.denseWeight())
                .addValue("lexicalWeight", properties.lexicalWeight())
                .addValue("rrfK", properties.rrfK())
                .addValue("periodWeight", properties.periodWeight())
                .addValue("recencyWeight", properties.recencyWeight())
                .addValue("periodFrom", timestamp(period == null ? null : period.from()))
                .addValue("periodTo", timestamp(period == null ? null : period.to()))
                .addValue("periodCandidates", period == null ? 0 : candidates)
                .addValue("raritySample", properties.raritySample())
                .addValue("limit", search.limit());
        settings.apply(jdbc, Math.min(1000, Math.max(40, denseCandidates * properties.efSearchFactor())));
        return new Prepared(sql, params);
    }

    private static MapSqlParameterSource filterParams(MemorySearch search) {
        return new MapSqlParameterSource()
                .addValue("tenantId", search.tenant().value())
                .addValue("userId", search.userId())
                .addValue(
                        "kinds",
                        search.kinds().stream().map(MemoryKind::wireName).toList())
                .addValue("excludedTurnIds", uuidArray(search.excludedTurnIds()))
                .addValue(
                        "speaker",
                        search.speaker() == null ? null : search.speaker().wireName())
                .addValue(
                        "sessionId",
                        search.sessionId() == null ? null : search.sessionId().toString())
                .addValue("from", timestamp(search.from()))
                .addValue("to", timestamp(search.to()))
                .addValue(
                        "minTrust",
                        search.minTrust() == null ? null : search.minTrust().rank())
                .addValue("asOf", timestamp(search.validity().asOf()))
                .addValue("includeSuperseded", search.validity().includeSuperseded());
    }

    private static Hit hit(ResultSet rs) throws SQLException {
        Double similarity = nullableDouble(rs, "similarity");
        Integer passage = nullableInt(rs, "passage");
        SearchExplanation explanation = new SearchExplanation(
                nullableInt(rs, "dense_rank"),
                nullableDouble(rs, "dense_score"),
                passage == null
                        ? null
                        : new SearchExplanation.Passage(passage, rs.getInt("passage_start"), rs.getInt("passage_end")),
                nullableInt(rs, "lexical_rank"),
                nullableDouble(rs, "lexical_score"),
                nullableDouble(rs, "lexical_coverage"),
                nullableInt(rs, "period_rank"),
                nullableInt(rs, "recency_rank"),
                rs.getDouble("fused_score"));
        String speaker = rs.getString("speaker");
        MemoryView view = new MemoryView(
                rs.getObject("id", UUID.class),
                MemoryKind.fromWireName(rs.getString("kind")),
                rs.getString("topic"),
                speaker == null ? null : Speaker.fromWireName(speaker),
                rs.getString("text"),
                similarity,
                new Provenance(
                        rs.getObject("session_id", UUID.class),
                        uuids(rs.getArray("turn_ids")),
                        MemorySource.fromWireName(rs.getString("source")),
                        rs.getString("source_detail"),
                        Trust.ofRank(rs.getInt("trust"))),
                rs.getInt("version"),
                SqlTimes.instant(rs, "created_at"),
                SqlTimes.instant(rs, "updated_at"),
                SqlTimes.instant(rs, "occurred_from"),
                SqlTimes.instant(rs, "occurred_to"),
                SqlTimes.instant(rs, "valid_to"),
                rs.getObject("superseded_by", UUID.class),
                uuids(rs.getArray("supersedes")),
                SqlTimes.instant(rs, "expires_at"),
                screening(rs),
                null);
        return new Hit(view, similarity, explanation);
    }

    private static MemoryScreening screening(ResultSet rs) throws SQLException {
        String state = rs.getString("screening");
        return state == null
                ? null
                : new MemoryScreening(
                        state, List.of((String[]) rs.getArray("screening_signs").getArray()));
    }

    private static Double nullableDouble(ResultSet rs, String column) throws SQLException {
        double value = rs.getDouble(column);
        return rs.wasNull() ? null : value;
    }

    private static Integer nullableInt(ResultSet rs, String column) throws SQLException {
        int value = rs.getInt(column);
        return rs.wasNull() ? null : value;
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
