package dev.memoir.memory.embedding;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;

import dev.memoir.common.jdbc.JdbcBatches;
import dev.memoir.jobs.Jobs;
import dev.memoir.llm.EmbeddedDocument;
import dev.memoir.llm.EmbeddingProperties;
import dev.memoir.llm.TextEmbedder;
import dev.memoir.memory.store.EmbeddingText;
import dev.memoir.memory.store.MemoryPassages;
import dev.memoir.memory.store.SqlValues;

/**
 * Re-embeds memories stored by another embedding model than the configured one, as a durable background job in
 * slices: each slice embeds batches for a bounded time and commits batch by batch, so a restart resumes where it
 * stopped and other jobs run in between. No lock is held while embedding; a memory edited meanwhile (new text,
 * new embedding) is left as its edit wrote it. Until a memory is re-embedded, search finds it by its words only.
 */
@Component
class MemoryReembedder {

    static final TaskDescriptor<Void> REEMBEDDING = TaskDescriptor.of("memory-reembedding");

    private static final Logger log = LoggerFactory.getLogger(MemoryReembedder.class);
    private static final Duration SLICE = Duration.ofSeconds(20);
    private static final Duration PROGRESS_CACHE = Duration.ofSeconds(30);
    /**
     * Names the memory's tenant and user as well as its id: memories are partitioned by tenant and user (V27), and
     * by id alone each update would probe all sixteen partitions' keys.
     */
    static final String UPDATE_ONE = """
            update memory_records set embedding = :vector, embedding_model = :model
            where id = :id and tenant_id = :tenantId and user_id = :userId
              and embedding_model <> :model and text = :text""";

    private final JdbcClient jdbc;
    private final JdbcBatches batches;
    private final TransactionTemplate transaction;
    private final TextEmbedder embedder;
    private final MemoryPassages passages;
    private final EmbeddingProperties properties;
    private final Jobs jobs;
    private final Counter reembedded;
    private volatile long staleCached = -1;
    private volatile Instant staleCountedAt = Instant.EPOCH;

    MemoryReembedder(
            JdbcClient jdbc,
            JdbcBatches batches,
            TransactionTemplate transaction,
            TextEmbedder embedder,
            EmbeddingProperties properties,
            Jobs jobs,
            MeterRegistry meters,
            MemoryPassages passages) {
        this.passages = passages;
        this.jdbc = jdbc;
        this.batches = batches;
        this.transaction = transaction;
        this.embedder = embedder;
        this.properties = properties;
        this.jobs = jobs;
        this.reembedded = Counter.builder("memoir.embedding.reembedded")
                .description("Memories re-embedded by the configured model")
                .register(meters);
        Gauge.builder("memoir.embedding.stale", this, MemoryReembedder::staleEstimate)
                .description("Memories still embedded by another model than the configured one")
                .register(meters);
    }

    /** Progress of the re-embedding, for operators. */
    record Progress(String model, long staleMemories, long totalMemories) {}

    Progress progress() {
        long stale = staleCount();
        long total = jdbc.sql("select count(*) from memory_records")
                .query(Long.class)
                .single();
        return new Progress(embedder.modelName(), stale, total);
    }

    @EventListener(ApplicationReadyEvent.class)
    void queueWhenStale() {
        if (staleCount() > 0) {
            log.info(
                    "{} memories were embedded by another model than {}: re-embedding them in the background",
                    staleCached,
                    embedder.modelName());
            transaction.executeWithoutResult(status -> jobs.queue(REEMBEDDING, embedder.modelName()));
        }
    }

    /** One slice of the job; answers whether memories remain to re-embed. */
    boolean reembedSlice(String model) {
        if (!model.equals(embedder.modelName())) {
            // Queued under an earlier configuration; the current model's own job is queued at start-up.
            return false;
        }
        Instant deadline = Instant.now().plus(SLICE);
        UUID after = new UUID(0, 0);
        boolean processedAny = false;
        while (Instant.now().isBefore(deadline)) {
            List<Stale> batch = jdbc.sql("""
                    select id, tenant_id, user_id, text, topic from memory_records
                    where embedding_model <> :model and id > :after
                    order by id limit :batch""")
                    .param("model", model)
                    .param("after", after)
                    .param("batch", properties.reembedBatchSize())
                    .query((rs, row) -> new Stale(
                            rs.getObject("id", UUID.class),
                            rs.getObject("tenant_id", UUID.class),
                            rs.getString("user_id"),
                            rs.getString("text"),
                            rs.getString("topic")))
                    .list();
            if (batch.isEmpty()) {
                staleCountedAt = Instant.EPOCH;
                // Rows that turned stale behind this scan (a change of model mid-job) are left for another slice.
                return processedAny && staleCount() > 0;
            }
            List<EmbeddedDocument> embedded = embedder.embedInPassages(
                    batch.stream().map(Stale::embeddingText).toList());
            List<MapSqlParameterSource> updates = new ArrayList<>(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                Stale stale = batch.get(i);
                updates.add(new MapSqlParameterSource("id", stale.id())
                        .addValue("tenantId", stale.tenantId())
                        .addValue("userId", stale.userId())
                        .addValue("model", model)
                        .addValue("text", stale.text())
                        .addValue("vector", SqlValues.vector(embedded.get(i).embedding())));
            }
            int[] counts = transaction.execute(status -> {
                int[] updated = batches.update(UPDATE_ONE, updates);
                // A memory re-embedded gets the passages of the new model with it; one edited meanwhile keeps its
                // edit's.
                for (int i = 0; i < batch.size(); i++) {
                    if (updated[i] > 0) {
                        passages.replace(batch.get(i).owner(embedded.get(i)), model);
                    }
                }
                return updated;
            });
            long done = Arrays.stream(counts).filter(c -> c > 0).count();
            reembedded.increment(done);
            after = batch.getLast().id();
            processedAny = true;
        }
        staleCountedAt = Instant.EPOCH;
        return true;
    }

    private long staleCount() {
        long stale = jdbc.sql("select count(*) from memory_records where embedding_model <> :model")
                .param("model", embedder.modelName())
                .query(Long.class)
                .single();
        staleCached = stale;
        staleCountedAt = Instant.now();
        return stale;
    }

    private double staleEstimate() {
        if (staleCached < 0 || staleCountedAt.plus(PROGRESS_CACHE).isBefore(Instant.now())) {
            try {
                return staleCount();
            } catch (RuntimeException e) {
                return staleCached;
            }
        }
        return staleCached;
    }

    private record Stale(UUID id, UUID tenantId, String userId, String text, String topic) {

        String embeddingText() {
            return EmbeddingText.of(topic, text);
        }

        MemoryPassages.Owner owner(EmbeddedDocument embedded) {
            return EmbeddingText.passagesOf(id, tenantId, userId, topic, text, embedded);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        CustomTask<Void> memoryReembeddingTask(Jobs jobs, MemoryReembedder reembedder) {
            return jobs.slicedTask(REEMBEDDING, reembedder::reembedSlice);
        }
    }
}
