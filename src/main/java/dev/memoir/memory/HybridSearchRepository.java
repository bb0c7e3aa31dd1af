package dev.memoir.memory;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

import org.postgresql.util.PGobject;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * Hybrid memory search in one SQL statement: a dense ranking (cosine distance on the HNSW index) and a full-text
 * ranking (the query's words OR-ed, on the GIN index) of the same user's memories, fused by reciprocal rank.
 * Tenant, user and every filter apply inside both rankings, so no other user's row is ever ranked or returned.
 * Because the words are OR-ed, a memory sharing one common word with the question gets a lexical rank too; by
 * default its rank counts only in proportion to the share of the query's word rarity it holds (retrieval
 * benchmark, recall@1/5/10: 42.4/62.1/73.8 with plain fusion, 48.5/69.6/76.9 weighted; docs/benchmarks.md).
 *
 * <p>The plan matters more than the SQL: a cached generic plan cannot know whether the user has forty memories
 * (an exact scan of them is cheapest and exact) or a hundred thousand (the HNSW index is the only fast way), so
 * the statement is always planned for its actual values, and the query vector is bound as a {@code vector}, not
 * as text that a generic plan would parse again for every row. Planned for its tenant and user, every part of the
 * statement, the final join included, reads only the partition that holds that user (V27). Only the best
 * {@code limit} fused candidates are joined back to their rows: where a partition has no statistics yet, the
 * planner may look each one up through the user's index instead of the key, and then each costs a scan of the
 * user's rows (retrieval benchmark on a database without autovacuum: hybrid p50 28.8 ms instead of 10).
 *
 * <p>A question that names a month with its year ({@link QueryPeriod}) gets a third ranking: the memories whose
 * dialogue began in that period, nearest first, fused like the other two, so that "What did Melanie buy in October
 * 2022?" finds the October purchase that neither the words nor the embedding can tell from the others. "Began in",
 * not "overlaps": a range of the user's time index, ranked exactly, where an overlap could only be found by the
 * HNSW scan filtering its way through the user's other months (docs/benchmarks.md#retrieval-quality). Without
 * such a month the period is null, the ranking's conditions fold to false and PostgreSQL does not scan for it.
 */
@Repository
class HybridSearchRepository {

    private static final String FILTERS = """
            m.tenant_id = :tenantId and m.user_id = :userId and m.kind in (:kinds)
              and not (m.turn_ids && :excludedTurnIds)
              and (cast(:speaker as text) is null or m.speaker = cast(:speaker as text))
              and (cast(:sessionId as uuid) is null or m.session_id = cast(:sessionId as uuid))
              and (cast(:from as timestamptz) is null or m.occurred_to >= cast(:from as timestamptz))
              and (cast(:to as timestamptz) is null or m.occurred_from < cast(:to as timestamptz))
              and (m.expires_at is null or m.expires_at > now())
              and (cast(:includeSuperseded as boolean)
                   or (cast(:asOf as timestamptz) is null and m.valid_to is null)
                   or (m.occurred_from <= cast(:asOf as timestamptz)
                       and (m.valid_to is null or m.valid_to > cast(:asOf as timestamptz))))""";

    /**
     * A memory's columns as views show them, with the memories it superseded (on the partial index of V32). The
     * user is named by parameter, not by the row: then the planner reads that one partition.
     */
    private static final String COLUMNS = """
            m.id, m.kind, m.topic, m.speaker, m.text, m.session_id, m.turn_ids, m.version, m.created_at,
            m.updated_at, m.occurred_from, m.occurred_to, m.valid_to, m.superseded_by, m.expires_at,
            array(select s.id from memory_records s
                  where s.tenant_id = :tenantId and s.user_id = :userId and s.superseded_by = m.id
                  order by s.valid_to, s.id) as supersedes""";

    /** The lexical candidates ranked by one of PostgreSQL's ranking functions, which know no word rarity. */
    private static final String LEXICAL_BY_FUNCTION = """
            lexical as (
                select m.id, %2$s(m.search_vector, q.query, :normalization) as score
                from memory_records m,
                     (select replace(plainto_tsquery('english', :text)::text, ' & ', ' | ')::tsquery as query) q
                where %1$s and m.search_vector @@ q.query
                order by score desc, m.id
                limit :lexicalCandidates
            )""";

    /**
     * The lexical candidates ranked by the rarity of the query words they contain, as BM25 weighs them: each
     * word counts ln(1 + (n - df + 0.5) / (df + 0.5)), df being how many of n of the user's memories hold it.
     * The counts come from the user's newest memories, at most {@code raritySample} of them (all of them for most
     * users), so a name in every greeting counts for little and "Copenhagen" for much. The newest, not any: read
     * in the order of the user's index, the sample costs the same for every user, where an unordered one was
     * planned as a scan of the partition for a user who fills most of it (scale benchmark, run 7). Every memory
     * holding any query word is read and scored, so the cost grows with how many of the user's memories hold one
     * (bounding the rows read per word was measured slower for mid-sized users: docs/scale-benchmark.md, run 5).
     * Ties go to ts_rank, which counts repetitions. The weights are materialised: inlined into the per-row sum,
     * PostgreSQL would count the sample again for every candidate.
     */
    private static final String LEXICAL_BY_RARITY = """
            sample as (
                select m.search_vector from memory_records m where %1$s
                order by m.created_at desc limit :raritySample
            ), terms as materialized (
                select distinct lexeme, quote_literal(lexeme)::tsquery as query
                from unnest(tsvector_to_array(to_tsvector('english', :text))) as lexeme
            ), weights as materialized (
                select t.query, ln(1 + ((select count(*) from sample) - count(s.search_vector) + 0.5)
                                       / (count(s.search_vector) + 0.5)) as idf
                from terms t left join sample s on s.search_vector @@ t.query
                group by t.lexeme, t.query
            ), lexical as (
                select m.id, (select sum(w.idf) from weights w where m.search_vector @@ w.query) as score,
                       ts_rank(m.search_vector, q.query, :normalization) as tie
                from memory_records m,
                     (select replace(plainto_tsquery('english', :text)::text, ' & ', ' | ')::tsquery as query) q
                where %1$s and m.search_vector @@ q.query
                order by score desc nulls last, tie desc, m.id
                limit :lexicalCandidates
            )""";

    /**
     * The dense candidates: the memories nearest by their own vector, and those nearest by one of their passages
     * (V29: a long memory's passages), each memory at its best distance, with the passage that gave it (none for
     * its own vector). Each side is its own HNSW scan of the user's partition, filtered alike.
     */
    private static final String SQL = """
            with dense as (
                select id, min(distance) as distance, (array_agg(passage order by distance))[1] as passage
                from (
                    (select m.id, m.embedding <=> :vector as distance, null::int as passage
                     from memory_records m
                     where %1$s and m.embedding_model = :model
                     order by m.embedding <=> :vector
                     limit :denseCandidates)
                    union all
                    (select p.memory_id, p.embedding <=> :vector, p.position
                     from memory_passages p
                     join memory_records m on m.id = p.memory_id and m.tenant_id = p.tenant_id and m.user_id = p.user_id
                     where p.tenant_id = :tenantId and p.user_id = :userId and p.embedding_model = :model and %1$s
                     order by p.embedding <=> :vector
                     limit :denseCandidates)
                ) candidates
                group by id
                order by distance, id
                limit :denseCandidates
            ), dense_ranked as (
                select id, distance, passage, row_number() over (order by distance, id) as rank from dense
            ), period_ranked as (
                select id, row_number() over (order by distance, id) as rank
                from (select m.id, m.embedding <=> :vector as distance
                      from memory_records m
                      where %1$s and m.embedding_model = :model
                        and m.occurred_from >= cast(:periodFrom as timestamptz)
                        and m.occurred_from < cast(:periodTo as timestamptz)
                      order by m.embedding <=> :vector
                      limit :periodCandidates) in_period
            ), %2$s, lexical_ranked as (
                select id, score, row_number() over (order by score desc, id) as rank, %3$s as coverage
                from lexical
            ), fused as (
                select coalesce(d.id, l.id, t.id) as id, d.rank as dense_rank, 1 - d.distance as dense_score,
                       d.passage, l.rank as lexical_rank, l.score as lexical_score, l.coverage as lexical_coverage,
                       t.rank as period_rank,
                       coalesce(:denseWeight / (:rrfK + d.rank), 0)
                           + coalesce(:lexicalWeight * l.coverage / (:rrfK + l.rank), 0)
                           + coalesce(:periodWeight / (:rrfK + t.rank), 0) as fused_score
                from dense_ranked d full join lexical_ranked l on l.id = d.id
                full join period_ranked t on t.id = coalesce(d.id, l.id)
            ), %5$s, best as (
                select * from ranked
                order by fused_score desc, dense_rank nulls last, lexical_rank nulls last, id
                limit :limit
            )
            select %4$s,
                   case when m.embedding_model = :model
                        then greatest(1 - (m.embedding <=> :vector), coalesce(f.dense_score, -1)) end as similarity,
                   f.dense_rank, f.dense_score, f.lexical_rank, f.lexical_score, f.lexical_coverage, f.period_rank,
                   f.recency_rank, f.fused_score,
                   f.passage, p.start_char as passage_start, p.end_char as passage_end
            from best f join memory_records m
                on m.id = f.id and m.tenant_id = :tenantId and m.user_id = :userId
            left join memory_passages p
                on p.memory_id = f.id and p.position = f.passage and p.tenant_id = :tenantId and p.user_id = :userId
            order by f.fused_score desc, f.dense_rank nulls last, f.lexical_rank nulls last, m.id""";

    private static final String RANKED = """
            ranked as (select *, null::bigint as recency_rank from fused)""";

    /**
     * A fourth ranking, when memoir.search.recency-weight is above 0: the fused candidates by when their dialogue
     * began, newest first, so that of two memories about the same thing the newer gains. Each candidate is looked
     * up by its key for its date.
     */
    private static final String RANKED_WITH_RECENCY = """
            dated as (
                select f.*, row_number() over (order by m.occurred_from desc, f.id) as recency_rank
                from fused f join memory_records m
                    on m.id = f.id and m.tenant_id = :tenantId and m.user_id = :userId
            ), ranked as (
                select id, dense_rank, dense_score, passage, lexical_rank, lexical_score, lexical_coverage,
                       period_rank, recency_rank, fused_score + :recencyWeight / (:rrfK + recency_rank) as fused_score
                from dated
            )""";

    private final NamedParameterJdbcTemplate jdbc;
    private final SearchProperties properties;
    private final String sql;

    HybridSearchRepository(NamedParameterJdbcTemplate jdbc, SearchProperties properties) {
        this.jdbc = jdbc;
        this.properties = properties;
        boolean rarity = properties.lexicalRanking() == SearchProperties.LexicalRanking.RARITY;
        String lexical = rarity ? LEXICAL_BY_RARITY.formatted(FILTERS)
                : LEXICAL_BY_FUNCTION.formatted(FILTERS, properties.lexicalRanking().function());
        // The share of the query's word rarity that a memory holds: 1 when it holds every query word.
        String coverage = rarity && properties.fusion() == SearchProperties.Fusion.COVERAGE_WEIGHTED
                ? "score / nullif((select sum(w.idf) from weights w), 0)" : "1";
        this.sql = SQL.formatted(FILTERS, lexical, coverage, COLUMNS,
                properties.recencyWeight() > 0 ? RANKED_WITH_RECENCY : RANKED);
    }

    /** A found memory with its cosine similarity (null for a vector of another model) and its ranking. */
    record Hit(MemoryView memory, Double similarity, SearchExplanation explanation) {
    }

    /** Must run inside a transaction: the planner settings below hold for it only. */
    List<Hit> search(MemorySearch search, String model) {
        Prepared prepared = prepare(search, model);
        return jdbc.query(prepared.sql(), prepared.params(), (rs, row) -> hit(rs));
    }

    /**
     * The user's newest memories passing the search's filters (its query is not used), after a position when one is
     * given: the memories created before {@code beforeCreatedAt}, or at that instant with a lower id. Each page
     * continues the index scan on (created_at, id) where the last one stopped.
     */
    List<MemoryView> newest(MemorySearch filters, Instant beforeCreatedAt, UUID beforeId) {
        MapSqlParameterSource params = filterParams(filters).addValue("limit", filters.limit())
                .addValue("beforeCreatedAt", timestamp(beforeCreatedAt)).addValue("beforeId", beforeId);
        // Two statements rather than one with "is null or": the position must be an index condition in every plan.
        String after = beforeCreatedAt == null ? ""
                : " and (m.created_at, m.id) < (cast(:beforeCreatedAt as timestamptz), cast(:beforeId as uuid))";
        return jdbc.query("""
                select %s, null as similarity, null as dense_rank,
                       null as dense_score, null as lexical_rank, null as lexical_score,
                       null as lexical_coverage, null as period_rank, null as recency_rank, 0 as fused_score,
                       null as passage,
                       null as passage_start, null as passage_end
                from memory_records m
                where %s%s
                order by m.created_at desc, m.id desc
                limit :limit""".formatted(COLUMNS, FILTERS, after), params, (rs, row) -> hit(rs).memory());
    }

    /** The plan PostgreSQL chooses for a search, for tests and benchmarks; inside a transaction like search. */
    List<String> plan(MemorySearch search, String model) {
        Prepared prepared = prepare(search, model);
        return jdbc.queryForList("explain " + prepared.sql(), prepared.params(), String.class);
    }

    private record Prepared(String sql, MapSqlParameterSource params) {
    }

    /** The rankings the search uses: its own choice, or the configured default. */
    SearchMode mode(MemorySearch search) {
        return search.mode() != null ? search.mode() : properties.mode();
    }

    private Prepared prepare(MemorySearch search, String model) {
        SearchMode mode = mode(search);
        int candidates = Math.max(search.limit(), properties.candidates());
        int denseCandidates = mode.usesDense() ? candidates : 0;
        int lexicalCandidates = mode.usesLexical() && search.query().text() != null
                && !search.query().text().isBlank() ? candidates : 0;
        // A third ranking, in hybrid search only: the memories of the months the question names, nearest first.
        QueryPeriod period = mode.usesDense() && mode.usesLexical() && properties.periodWeight() > 0
                ? QueryPeriod.in(search.query().text()).orElse(null) : null;
        MapSqlParameterSource params = filterParams(search)
                .addValue("vector", vector(search.query().embedding()))
                .addValue("model", model)
                .addValue("text", search.query().text() == null ? "" : search.query().text())
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
        // No parallel workers: when a big user fills most of its partition, the planner read the rarity sample with
        // a parallel sequential scan whose workers took 60 ms to start for 4 ms of reading (scale benchmark, run 7).
        jdbc.queryForList("select set_config('plan_cache_mode', 'force_custom_plan', true), "
                        + "set_config('max_parallel_workers_per_gather', '0', true), "
                        + "set_config('hnsw.ef_search', :efSearch, true)",
                new MapSqlParameterSource("efSearch",
                        String.valueOf(Math.min(1000, Math.max(40, denseCandidates * properties.efSearchFactor())))));
        return new Prepared(sql, params);
    }

    private static MapSqlParameterSource filterParams(MemorySearch search) {
        return new MapSqlParameterSource()
                .addValue("tenantId", search.tenant().value())
                .addValue("userId", search.userId())
                .addValue("kinds", search.kinds().stream().map(MemoryKind::wireName).toList())
                .addValue("excludedTurnIds", uuidArray(search.excludedTurnIds()))
                .addValue("speaker", search.speaker() == null ? null : search.speaker().wireName())
                .addValue("sessionId", search.sessionId() == null ? null : search.sessionId().toString())
                .addValue("from", timestamp(search.from()))
                .addValue("to", timestamp(search.to()))
                .addValue("asOf", timestamp(search.validity().asOf()))
                .addValue("includeSuperseded", search.validity().includeSuperseded());
    }

    private static Hit hit(ResultSet rs) throws SQLException {
        Double similarity = nullableDouble(rs, "similarity");
        Integer passage = nullableInt(rs, "passage");
        SearchExplanation explanation = new SearchExplanation(nullableInt(rs, "dense_rank"),
                nullableDouble(rs, "dense_score"), passage == null ? null
                        : new SearchExplanation.Passage(passage, rs.getInt("passage_start"), rs.getInt("passage_end")),
                nullableInt(rs, "lexical_rank"), nullableDouble(rs, "lexical_score"),
                nullableDouble(rs, "lexical_coverage"), nullableInt(rs, "period_rank"), nullableInt(rs, "recency_rank"),
                rs.getDouble("fused_score"));
        String speaker = rs.getString("speaker");
        MemoryView view = new MemoryView(rs.getObject("id", UUID.class), MemoryKind.fromWireName(rs.getString("kind")),
                rs.getString("topic"), speaker == null ? null : Speaker.fromWireName(speaker), rs.getString("text"),
                similarity, new Provenance(rs.getObject("session_id", UUID.class), uuids(rs.getArray("turn_ids"))),
                rs.getInt("version"), instant(rs, "created_at"), instant(rs, "updated_at"),
                instant(rs, "occurred_from"), instant(rs, "occurred_to"), instant(rs, "valid_to"),
                rs.getObject("superseded_by", UUID.class), uuids(rs.getArray("supersedes")), instant(rs, "expires_at"),
                null);
        return new Hit(view, similarity, explanation);
    }

    private static List<UUID> uuids(Array array) throws SQLException {
        if (array == null) {
            return List.of();
        }
        return Arrays.stream((Object[]) array.getArray()).map(UUID.class::cast).toList();
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp timestamp = rs.getTimestamp(column);
        return timestamp == null ? null : timestamp.toInstant();
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

    static PGobject vector(float[] embedding) {
        return pgObject("vector", Vectors.literal(embedding));
    }

    private static PGobject uuidArray(java.util.Collection<UUID> ids) {
        return pgObject("uuid[]", ids.stream().map(UUID::toString).collect(Collectors.joining(",", "{", "}")));
    }

    private static PGobject pgObject(String type, String value) {
        try {
            PGobject object = new PGobject();
            object.setType(type);
            object.setValue(value);
            return object;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
