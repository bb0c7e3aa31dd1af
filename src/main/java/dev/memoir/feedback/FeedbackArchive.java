package dev.memoir.feedback;

import static dev.memoir.common.jdbc.SqlTimes.instant;
import static dev.memoir.common.jdbc.SqlTimes.timestamptz;

import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.sql.DataSource;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.memoir.common.jdbc.JdbcBatches;
import dev.memoir.common.jdbc.StreamingJdbc;
import dev.memoir.tenant.TenantId;

/**
 * A user's learning episodes (RAM) and the feedback given in them, as a user archive carries them: read as streams,
 * written back under another tenant and user with the ids the archive gives, in the caller's transaction.
 */
@Component
public class FeedbackArchive {

    /** An episode as archived; {@code trials} is its trials' JSON. */
    public record ArchivedEpisode(
            UUID id,
            UUID sessionId,
            UUID questionTurnId,
            UUID replyTurnId,
            String question,
            String status,
            String trials,
            String learned,
            UUID learnedMemoryId,
            Instant createdAt,
            Instant updatedAt) {}

    /** One piece of feedback on a reply, as archived. */
    public record ArchivedFeedback(
            UUID id,
            UUID turnId,
            UUID episodeId,
            String verdict,
            String hint,
            String answer,
            String outcome,
            Instant createdAt) {}

    private final JdbcClient jdbc;
    private final JdbcBatches batches;

    FeedbackArchive(DataSource dataSource, JdbcBatches batches) {
        this.jdbc = StreamingJdbc.of(dataSource);
        this.batches = batches;
    }

    /** Those of {@code ids} that are episodes of the user: the ones an import has stored so far. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Set<UUID> episodesAmong(TenantId tenant, String userId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.sql("""
                select id from episodes
                where tenant_id = :tenantId and user_id = :userId and id = any(cast(:ids as uuid[]))""")
                .paramSource(user(tenant, userId)
                        .addValue("ids", ids.stream().map(UUID::toString).collect(Collectors.joining(",", "{", "}"))))
                .query(UUID.class)
                .list());
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public Stream<ArchivedEpisode> episodes(TenantId tenant, String userId) {
        return jdbc
                .sql("""
                select id, session_id, question_turn_id, reply_turn_id, question, status, trials::text as trials,
                       learned,
                       -- A memory deleted since is no longer the archive's to name, which its import requires.
                       -- The tenant as a value, not e's: Citus then plans the subquery for the tenant's shard.
                       case when exists (select 1 from memory_records m where m.tenant_id = :tenantId
                                         and m.user_id = e.user_id and m.id = e.learned_memory_id)
                            then learned_memory_id end as learned_memory_id,
                       created_at, updated_at
                from episodes e where tenant_id = :tenantId and user_id = :userId
                order by created_at, id""")
                .paramSource(user(tenant, userId))
                .query((rs, n) -> new ArchivedEpisode(
                        rs.getObject("id", UUID.class),
                        rs.getObject("session_id", UUID.class),
                        rs.getObject("question_turn_id", UUID.class),
                        rs.getObject("reply_turn_id", UUID.class),
                        rs.getString("question"),
                        rs.getString("status"),
                        rs.getString("trials"),
                        rs.getString("learned"),
                        rs.getObject("learned_memory_id", UUID.class),
                        instant(rs, "created_at"),
                        instant(rs, "updated_at")))
                .stream();
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public Stream<ArchivedFeedback> feedback(TenantId tenant, String userId) {
        return jdbc
                .sql("""
                select f.id, f.turn_id, f.episode_id, f.verdict, f.hint, f.answer, f.outcome, f.created_at
                from episodes e join reply_feedback f on f.episode_id = e.id and f.tenant_id = e.tenant_id
                where e.tenant_id = :tenantId and e.user_id = :userId
                order by e.created_at, e.id, f.created_at, f.id""")
                .paramSource(user(tenant, userId))
                .query((rs, n) -> new ArchivedFeedback(
                        rs.getObject("id", UUID.class),
                        rs.getObject("turn_id", UUID.class),
                        rs.getObject("episode_id", UUID.class),
                        rs.getString("verdict"),
                        rs.getString("hint"),
                        rs.getString("answer"),
                        rs.getString("outcome"),
                        instant(rs, "created_at")))
                .stream();
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void restoreEpisodes(TenantId tenant, String userId, List<ArchivedEpisode> episodes) {
        batches.update(
                """
                insert into episodes (id, tenant_id, user_id, session_id, question_turn_id, reply_turn_id, question,
                                      status, trials, learned, learned_memory_id, created_at, updated_at)
                values (:id, :tenantId, :userId, :sessionId, :questionTurnId, :replyTurnId, :question, :status,
                        cast(:trials as jsonb), :learned, :learnedMemoryId, :createdAt, :updatedAt)""",
                episodes.stream()
                        .map(e -> user(tenant, userId)
                                .addValue("id", e.id())
                                .addValue("sessionId", e.sessionId())
                                .addValue("questionTurnId", e.questionTurnId())
                                .addValue("replyTurnId", e.replyTurnId())
                                .addValue("question", e.question())
                                .addValue("status", e.status())
                                .addValue("trials", e.trials())
                                .addValue("learned", e.learned())
                                .addValue("learnedMemoryId", e.learnedMemoryId())
                                .addValue("createdAt", timestamptz(e.createdAt()))
                                .addValue("updatedAt", timestamptz(e.updatedAt())))
                        .toList());
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void restoreFeedback(TenantId tenant, List<ArchivedFeedback> feedback) {
        batches.update(
                """
                insert into reply_feedback (id, tenant_id, turn_id, episode_id, verdict, hint, answer, outcome,
                                            created_at)
                values (:id, :tenantId, :turnId, :episodeId, :verdict, :hint, :answer, :outcome, :createdAt)""",
                feedback.stream()
                        .map(f -> new MapSqlParameterSource("tenantId", tenant.value())
                                .addValue("id", f.id())
                                .addValue("turnId", f.turnId())
                                .addValue("episodeId", f.episodeId())
                                .addValue("verdict", f.verdict())
                                .addValue("hint", f.hint())
                                .addValue("answer", f.answer())
                                .addValue("outcome", f.outcome())
                                .addValue("createdAt", timestamptz(f.createdAt())))
                        .toList());
    }

    private static MapSqlParameterSource user(TenantId tenant, String userId) {
        return new MapSqlParameterSource().addValue("tenantId", tenant.value()).addValue("userId", userId);
    }
}
