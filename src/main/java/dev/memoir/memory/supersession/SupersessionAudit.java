package dev.memoir.memory.supersession;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.SupersessionProblem;

/**
 * Checks the supersessions of memories written as an archive carries them, which the API's rules never saw: run
 * once an import has stored the user's memories, as a memory may name one that comes after it.
 */
@Repository
public class SupersessionAudit {

    private final JdbcClient jdbc;

    SupersessionAudit(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The first of the user's memories whose supersession the API would have refused: superseded by a memory the
     * user does not have, by itself, by or of a kind that is not fact-bearing, or in a loop. Every chain must end
     * in a live memory; any length is legal, as exports of the service hold them.
     */
    public Optional<SupersessionProblem> firstProblem(UUID tenantId, String userId) {
        MapSqlParameterSource user = new MapSqlParameterSource()
                .addValue("tenantId", tenantId)
                .addValue("userId", userId)
                .addValue(
                        "factBearing",
                        MemoryKind.FACT_BEARING.stream()
                                .map(MemoryKind::wireName)
                                .toList());
        RowMapper<SupersessionProblem> problem = (rs, n) -> new SupersessionProblem(
                rs.getObject("id", UUID.class), rs.getObject("superseded_by", UUID.class), rs.getString("problem"));
        // In this order: the loop check takes every supersessor to be a memory of the user.
        List<String> checks = List.of("""
                select m.id, m.superseded_by, 'names no memory of the archive' as problem
                from memory_records m
                where m.tenant_id = :tenantId and m.user_id = :userId and m.superseded_by is not null
                  and not exists (select 1 from memory_records s where s.tenant_id = m.tenant_id
                                  and s.user_id = m.user_id and s.id = m.superseded_by)
                limit 1""", """
                select m.id, m.superseded_by, 'names the memory itself: a memory cannot supersede itself' as problem
                from memory_records m
                where m.tenant_id = :tenantId and m.user_id = :userId and m.superseded_by = m.id
                limit 1""", """
                select m.id, m.superseded_by,
                       case when m.kind not in (:factBearing) then 'is set on a ' || m.kind || ' memory'
                            else 'names a ' || s.kind || ' memory' end
                       || ': only fact-bearing memories (' || array_to_string(array[:factBearing], ', ')
                       || ') supersede and are superseded' as problem
                from memory_records m join memory_records s on s.tenant_id = m.tenant_id and s.user_id = m.user_id
                                                        and s.id = m.superseded_by
                where m.tenant_id = :tenantId and m.user_id = :userId
                  and (m.kind not in (:factBearing) or s.kind not in (:factBearing))
                limit 1""", """
                with recursive settled (id) as (
                    select id from memory_records
                    where tenant_id = :tenantId and user_id = :userId and superseded_by is null
                    union all
                    select m.id from memory_records m join settled on m.superseded_by = settled.id
                    where m.tenant_id = :tenantId and m.user_id = :userId
                )
                select m.id, m.superseded_by, 'closes a loop of supersessions: a chain must end in a live memory'
                       as problem
                from memory_records m
                where m.tenant_id = :tenantId and m.user_id = :userId and m.superseded_by is not null
                  and not exists (select 1 from settled where settled.id = m.id)
                limit 1""");
        for (String check : checks) {
            List<SupersessionProblem> found =
                    jdbc.sql(check).paramSource(user).query(problem).list();
            if (!found.isEmpty()) {
                return Optional.of(found.getFirst());
            }
        }
        return Optional.empty();
    }
}
