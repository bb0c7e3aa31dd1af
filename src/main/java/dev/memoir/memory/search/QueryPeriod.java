package dev.memoir.memory.search;

import java.time.Instant;
import java.time.Month;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The months a question names with their year ("What did Melanie buy in October 2022?", "on May 7th, 2023";
 * "between March and May 2023" names only May): from the first day of the earliest to the end of the latest, in
 * UTC, at most {@value #MAX_MONTHS} months ("in March 2020 or March 2023" is no period: it would lift three years). A
 * question that names a month asks about what was said then, which neither ranking can see: the dialogue's date is
 * not in its words, and a month's name is equally rare in every memory of that month.
 */
record QueryPeriod(Instant from, Instant to) {

    static final int MAX_MONTHS = 3;

    private static final Pattern MONTH_YEAR = Pattern.compile(
            "\\b(january|february|march|april|may|june|july|august|september|october|november|december"
                    + "|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?(?:\\s+\\d{1,2}(?:st|nd|rd|th)?)?,?\\s+"
                    + "((?:19|20)\\d{2})\\b",
            Pattern.CASE_INSENSITIVE);

    /** The period the text names, if it names a month with its year. */
    static Optional<QueryPeriod> in(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher matcher = MONTH_YEAR.matcher(text);
        YearMonth first = null;
        YearMonth last = null;
        while (matcher.find()) {
            YearMonth month = YearMonth.of(Integer.parseInt(matcher.group(2)), month(matcher.group(1)));
            first = first == null || month.isBefore(first) ? month : first;
            last = last == null || month.isAfter(last) ? month : last;
        }
        if (first == null || first.plusMonths(MAX_MONTHS).isBefore(last.plusMonths(1))) {
            return Optional.empty();
        }
        return Optional.of(new QueryPeriod(
                first.atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant(),
                last.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant()));
    }

    private static Month month(String name) {
        String prefix = name.substring(0, 3).toUpperCase(Locale.ROOT);
        for (Month month : Month.values()) {
            if (month.name().startsWith(prefix)) {
                return month;
            }
        }
        throw new IllegalArgumentException(name);
    }
}
