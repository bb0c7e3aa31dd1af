package dev.memoir.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.EntityManagerFactory;

import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.memoir.support.IntegrationTest;

/**
 * Import speed rests on round trips to the database: a turn and its history memory are new rows, so storing them
 * must neither read them first (a merge of an entity with an assigned id does) nor send one insert at a time.
 */
class ImportRoundTripsTest extends IntegrationTest {

    private static final String HISTORY_ONLY = "{\"write\": [\"history\"], \"read\": [\"history\"]}";
    private static final int TURNS = 40;

    @Autowired
    EntityManagerFactory entityManagerFactory;

    private Statistics statistics() {
        return entityManagerFactory.unwrap(SessionFactory.class).getStatistics();
    }

    @AfterEach
    void statisticsOff() {
        statistics().setStatisticsEnabled(false);
    }

    @Test
    void importingFortyTurnsPreparesFewerStatementsThanItHasTurns() {
        String key = api.newTenant();
        String session = api.newSession(key, "ira", HISTORY_ONLY);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < TURNS / 2; i++) {
            lines.add("On day " + i + " I walked the dog along the canal");
            lines.add("How long was the walk on day " + i + "?");
        }
        Statistics statistics = statistics();
        statistics.clear();
        statistics.setStatisticsEnabled(true);

        int status = api.importTurns(key, session, lines.toArray(String[]::new)).status();
        long statements = statistics.getPrepareStatementCount();
        statistics.setStatisticsEnabled(false);

        assertThat(status).isEqualTo(201);
        // Counted across the whole service, so a background job polling meanwhile adds a few; reading each new row
        // first, or inserting one row at a time, adds at least one per turn.
        assertThat(statements).isLessThan(TURNS);
        assertThat(api.get(key, "/memory?userId=ira&kind=history&limit=100")
                        .body()
                        .path("items")
                        .size())
                .isEqualTo(TURNS);
    }
}
