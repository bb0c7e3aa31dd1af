package dev.memoir.memory.store;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.memoir.common.jdbc.JdbcBatches;
import dev.memoir.llm.EmbeddedDocument;

/**
 * The passages of long memories (V29), written and replaced with their memory's embedding and deleted with the
 * memory by its foreign key. Every statement names the memory's tenant and user: passages live in their user's
 * partition, as memories do.
 */
@Repository
public class MemoryPassages {

    private static final String INSERT = """
            insert into memory_passages (memory_id, tenant_id, user_id, position, start_char, end_char, embedding,
                                         embedding_model)
            values (:memoryId, :tenantId, :userId, :position, :start, :end, :vector, :model)""";

    private final JdbcClient jdbc;
    private final JdbcBatches batches;

    MemoryPassages(JdbcClient jdbc, JdbcBatches batches) {
        this.jdbc = jdbc;
        this.batches = batches;
    }

    /** A memory's key and its passages, to store. */
    public record Owner(UUID memoryId, UUID tenantId, String userId, List<EmbeddedDocument.Passage> passages) {}

    /** Stores the passages of memories already written (and flushed), in one batch. */
    public void insert(List<Owner> owners, String model) {
        List<MapSqlParameterSource> rows = new ArrayList<>();
        for (Owner owner : owners) {
            for (int i = 0; i < owner.passages().size(); i++) {
                EmbeddedDocument.Passage passage = owner.passages().get(i);
                rows.add(new MapSqlParameterSource("memoryId", owner.memoryId())
                        .addValue("tenantId", owner.tenantId())
                        .addValue("userId", owner.userId())
                        .addValue("position", i + 1)
                        .addValue("start", passage.start())
                        .addValue("end", passage.end())
                        .addValue("vector", SqlValues.vector(passage.embedding()))
                        .addValue("model", model));
            }
        }
        batches.update(INSERT, rows);
    }

    /** Replaces a memory's passages with those of its new text or model. */
    public void replace(Owner owner, String model) {
        jdbc.sql("delete from memory_passages where memory_id = :memoryId and tenant_id = :tenantId "
                        + "and user_id = :userId")
                .param("memoryId", owner.memoryId())
                .param("tenantId", owner.tenantId())
                .param("userId", owner.userId())
                .update();
        insert(List.of(owner), model);
    }
}
