package dev.memoir.memory.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.Test;

class QueryPeriodTest {

    private static QueryPeriod period(String from, String to) {
        return new QueryPeriod(Instant.parse(from), Instant.parse(to));
    }

    @Test
    void aMonthWithItsYearIsThatWholeMonthInUtc() {
        assertThat(QueryPeriod.in("What book did Melanie finish in October 2022?"))
                .contains(period("2022-10-01T00:00:00Z", "2022-11-01T00:00:00Z"));
        assertThat(QueryPeriod.in("what happened in december 2022"))
                .contains(period("2022-12-01T00:00:00Z", "2023-01-01T00:00:00Z"));
        assertThat(QueryPeriod.in("Trips in Sept. 2021?"))
                .contains(period("2021-09-01T00:00:00Z", "2021-10-01T00:00:00Z"));
        assertThat(QueryPeriod.in("Anything from Feb, 2024"))
                .contains(period("2024-02-01T00:00:00Z", "2024-03-01T00:00:00Z"));
        assertThat(QueryPeriod.in("What did she say on May 7, 2023?"))
                .contains(period("2023-05-01T00:00:00Z", "2023-06-01T00:00:00Z"));
        assertThat(QueryPeriod.in("The party on October 13th, 2022"))
                .contains(period("2022-10-01T00:00:00Z", "2022-11-01T00:00:00Z"));
    }

    @Test
    void severalMonthsSpanFromTheEarliestToTheEndOfTheLatest() {
        assertThat(QueryPeriod.in("Did she move between May 2023 and March 2023?"))
                .contains(period("2023-03-01T00:00:00Z", "2023-06-01T00:00:00Z"));
    }

    @Test
    void monthsFurtherApartThanThreeMonthsAreNoPeriod() {
        assertThat(QueryPeriod.in("from March 2023 to May 2023"))
                .contains(period("2023-03-01T00:00:00Z", "2023-06-01T00:00:00Z"));
        assertThat(QueryPeriod.in("in March 2020 or March 2023")).isEmpty();
        assertThat(QueryPeriod.in("from March 2023 to June 2023")).isEmpty();
    }

    @Test
    void aMonthWithoutItsYearOrAYearAloneIsNoPeriod() {
        assertThat(QueryPeriod.in("What did Melanie buy in May?")).isEmpty();
        assertThat(QueryPeriod.in("Her plans for 2023")).isEmpty();
        assertThat(QueryPeriod.in("She ran the marathon 2023 times")).isEmpty();
        assertThat(QueryPeriod.in("Summary of the octopus 2023 study")).isEmpty();
        assertThat(QueryPeriod.in(null)).isEmpty();
    }
}
