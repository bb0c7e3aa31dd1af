package dev.memoir.session;

import static dev.memoir.common.jdbc.SqlTimes.instant;
import static dev.memoir.common.jdbc.SqlTimes.timestamptz;

import java.sql.ResultSet;
import java.sql.SQLException;
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
import dev.memoir.common.web.InvalidRequestException;
import dev.memoir.memory.api.TurnOrigin;
import dev.memoir.session.store.MemorySettingsConverter;
import dev.memoir.tenant.TenantId;

/**
 * A user's sessions and turns as a user archive carries them: read as streams, oldest first, and written back
 * under another tenant and user with the ids the archive gives. Both run in the caller's transaction.
 */
@Component
public class SessionArchive {

    /**
     * A session as archived; {@code settings} is its memory settings' JSON, {@code title} an imported
     * conversation's title (null for others, and in archives made before sessions had titles).
     */
    public record ArchivedSession(
            UUID id,
            String status,
            String settings,
            Instant createdAt,
            Instant updatedAt,
            Instant closedAt,
            Instant firstTurnAt,
            Instant lastTurnAt,
            String title) {}

    /** A turn as archived. */
    public record ArchivedTurn(
            UUID id,
            UUID sessionId,
            int seq,
            String role,
            String speaker,
            String content,
            Instant createdAt,
            Instant occurredAt,
            UUID replyTo,
            TurnOrigin origin) {

        /**
         * How the restored turn reached Memoir: an export's turn stays an export's (its words are no more trusted for
         * the trip), every other one is the archive's, whatever the file claims (docs/trust.md).
         */
        TurnOrigin restoredOrigin() {
            return origin == TurnOrigin.CHATGPT || origin == TurnOrigin.CLAUDE ? origin : TurnOrigin.ARCHIVE;
        }
    }

    private final JdbcClient jdbc;
    private final JdbcBatches batches;

    SessionArchive(DataSource dataSource, JdbcBatches batches) {
        this.jdbc = StreamingJdbc.of(dataSource);
        this.batches = batches;
    }

    /** Whether the user has any session. */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean hasSessions(TenantId tenant, String userId) {
        return Boolean.TRUE.equals(jdbc.sql(
                        "select exists (select 1 from sessions where tenant_id = " + ":tenantId and user_id = :userId)")
                .paramSource(user(tenant, userId))
                .query(Boolean.class)
                .single());
    }

    /** Those of {@code ids} that are sessions of the user: the ones an import has stored so far. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Set<UUID> sessionsAmong(TenantId tenant, String userId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.sql("""
                select id from sessions
                where tenant_id = :tenantId and user_id = :userId and id = any(cast(:ids as uuid[]))""")
                .paramSource(user(tenant, userId).addValue("ids", uuidArray(ids)))
                .query(UUID.class)
                .list());
    }

    /** Those of {@code ids} that are turns of the user's sessions: the ones an import has stored so far. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Set<UUID> turnsAmong(TenantId tenant, String userId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.sql("""
                select t.id from turns t join sessions s on s.id = t.session_id and s.tenant_id = t.tenant_id
                where t.tenant_id = :tenantId and s.user_id = :userId and t.id = any(cast(:ids as uuid[]))""")
                .paramSource(user(tenant, userId).addValue("ids", uuidArray(ids)))
                .query(UUID.class)
                .list());
    }

    /** Read in the caller's transaction; close the stream. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Stream<ArchivedSession> sessions(TenantId tenant, String userId) {
        return jdbc
                .sql("""
                select id, status, settings::text as settings, created_at, updated_at, closed_at, first_turn_at,
                       last_turn_at, title
                from sessions where tenant_id = :tenantId and user_id = :userId
                order by created_at, id""")
                .paramSource(user(tenant, userId))
                .query((rs, n) -> new ArchivedSession(
                        rs.getObject("id", UUID.class),
                        rs.getString("status"),
                        rs.getString("settings"),
                        instant(rs, "created_at"),
                        instant(rs, "updated_at"),
                        instant(rs, "closed_at"),
                        instant(rs, "first_turn_at"),
                        instant(rs, "last_turn_at"),
                        rs.getString("title")))
                .stream();
    }

    /** The turns of the user's sessions, in the sessions' order and each session's order. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Stream<ArchivedTurn> turns(TenantId tenant, String userId) {
        return jdbc.sql("""
                select t.id, t.session_id, t.seq, t.role, t.speaker_name, t.content, t.created_at, t.occurred_at,
                       t.reply_to, t.origin
                from sessions s join turns t on t.session_id = s.id and t.tenant_id = s.tenant_id
                where s.tenant_id = :tenantId and s.user_id = :userId
                order by s.created_at, s.id, t.seq""").paramSource(user(tenant, userId)).query(SessionArchive::turn).stream();
    }

    /** Refused (400 naming the archive) when a session's memory settings are not ones Memoir reads. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void restoreSessions(TenantId tenant, String userId, List<ArchivedSession> sessions) {
        for (ArchivedSession session : sessions) {
            try {
                MemorySettingsConverter.read(session.settings());
            } catch (RuntimeException e) {
                throw new InvalidRequestException(
                        "archive", "session " + session.id() + " has memory settings Memoir cannot read");
            }
        }
        batches.update(
                """
                insert into sessions (id, tenant_id, user_id, status, settings, created_at, updated_at, closed_at,
                                      first_turn_at, last_turn_at, title)
                values (:id, :tenantId, :userId, :status, cast(:settings as jsonb), :createdAt, :updatedAt,
                        :closedAt, :firstTurnAt, :lastTurnAt, :title)""",
                sessions.stream()
                        .map(s -> user(tenant, userId)
                                .addValue("id", s.id())
                                .addValue("status", s.status())
                                .addValue("settings", s.settings())
                                .addValue("createdAt", timestamptz(s.createdAt()))
                                .addValue("updatedAt", timestamptz(s.updatedAt()))
                                .addValue("closedAt", timestamptz(s.closedAt()))
                                .addValue("firstTurnAt", timestamptz(s.firstTurnAt()))
                                .addValue("lastTurnAt", timestamptz(s.lastTurnAt()))
                                .addValue("title", s.title()))
                        .toList());
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void restoreTurns(TenantId tenant, List<ArchivedTurn> turns) {
        batches.update(
                """
                insert into turns (id, tenant_id, session_id, seq, role, speaker_name, content, created_at, occurred_at,
                                   reply_to, origin)
                values (:id, :tenantId, :sessionId, :seq, :role, :speaker, :content, :createdAt, :occurredAt,
                        :replyTo, :origin)""",
                turns.stream()
                        .map(t -> new MapSqlParameterSource()
                                .addValue("id", t.id())
                                .addValue("tenantId", tenant.value())
                                .addValue("sessionId", t.sessionId())
                                .addValue("seq", t.seq())
                                .addValue("role", t.role())
                                .addValue("speaker", t.speaker())
                                .addValue("content", t.content())
                                .addValue("createdAt", timestamptz(t.createdAt()))
                                .addValue("occurredAt", timestamptz(t.occurredAt()))
                                .addValue("replyTo", t.replyTo())
                                .addValue("origin", t.restoredOrigin().wireName()))
                        .toList());
    }

    private static ArchivedTurn turn(ResultSet rs, int row) throws SQLException {
        return new ArchivedTurn(
                rs.getObject("id", UUID.class),
                rs.getObject("session_id", UUID.class),
                rs.getInt("seq"),
                rs.getString("role"),
                rs.getString("speaker_name"),
                rs.getString("content"),
                instant(rs, "created_at"),
                instant(rs, "occurred_at"),
                rs.getObject("reply_to", UUID.class),
                TurnOrigin.fromWireName(rs.getString("origin")));
    }

    private static String uuidArray(Collection<UUID> ids) {
        return ids.stream().map(UUID::toString).collect(Collectors.joining(",", "{", "}"));
    }

    private static MapSqlParameterSource user(TenantId tenant, String userId) {
        return new MapSqlParameterSource().addValue("tenantId", tenant.value()).addValue("userId", userId);
    }
}
