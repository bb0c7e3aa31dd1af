package dev.memoir.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import javax.sql.DataSource;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;

/** A large import is embedded before its session is locked, so the lock is held for the writes alone. */
class ImportEmbeddingTest extends IntegrationTest {

    @Autowired
    DataSource dataSource;

    @Autowired
    TextEmbedder embedder;

    @Test
    void importedTurnsAreEmbeddedWhileAnotherTransactionHoldsTheirSession() throws Exception {
        String key = api.newTenant();
        String session = api.newSession(key, "ivy", "{\"write\": [\"history\"], \"read\": [\"history\"]}");
        String tag = UUID.randomUUID().toString();
        String[] turns = new String[40];
        for (int i = 0; i < turns.length; i++) {
            turns[i] = "Imported line " + i + " about the harbour " + tag;
        }

        CompletableFuture<Api.Response> imported;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("select id from sessions where id = ? for update")) {
                lock.setObject(1, UUID.fromString(session));
                lock.executeQuery();
            }
            imported = CompletableFuture.supplyAsync(() -> api.importTurns(key, session, turns));

            // A minute, not eventually()'s 20 s: the instance's embedding threads (one per core) may still be busy
            // with the jobs an earlier test left, and a clean-clone CI run on 2 cores once took longer than 20 s here.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> IntStream.range(0, turns.length)
                            .allMatch(i -> embedder.isPrepared((i % 2 == 0 ? "User: " : "Assistant: ") + turns[i])));
            assertThat(imported)
                    .as("the import waits for the session, its embeddings already made")
                    .isNotDone();
            holder.rollback();
        }

        assertThat(imported.get().status()).isEqualTo(201);
        assertThat(items(api.get(key, "/memory?userId=ivy&limit=100"))).hasSize(40);
        assertThat(embedder.isPrepared("User: " + turns[0]))
                .as("taken by the write")
                .isFalse();
    }
}
