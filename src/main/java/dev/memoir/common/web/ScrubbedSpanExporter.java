package dev.memoir.common.web;

import java.util.Collection;
import java.util.List;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.DelegatingSpanData;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.data.StatusData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * Exports spans without what a failure's exception says: an observation that ends in an exception records it on
 * its span as an event with the exception's message and stack trace, and as the span status's description. Those
 * messages may name a user ("User alice already has sessions") or repeat what a model server answered, so only the
 * exception's type leaves the process; the message stays in the log line Memoir writes for the failure, which is
 * written without the user's words.
 */
final class ScrubbedSpanExporter implements SpanExporter {

    private static final String EXCEPTION_EVENT = "exception";
    private static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey("exception.type");

    private final SpanExporter delegate;

    ScrubbedSpanExporter(SpanExporter delegate) {
        this.delegate = delegate;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        return delegate.export(spans.stream().map(Scrubbed::of).toList());
    }

    @Override
    public CompletableResultCode flush() {
        return delegate.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
        return delegate.shutdown();
    }

    @Override
    public String toString() {
        return "ScrubbedSpanExporter{" + delegate + "}";
    }

    /** A span as exported: exception events with their type only, the status without its description. */
    private static final class Scrubbed extends DelegatingSpanData {

        private final List<EventData> events;
        private final StatusData status;

        private Scrubbed(SpanData span) {
            super(span);
            this.events = span.getEvents().stream().map(Scrubbed::scrubbed).toList();
            this.status = span.getStatus().getDescription().isEmpty()
                    ? span.getStatus()
                    : StatusData.create(span.getStatus().getStatusCode(), "");
        }

        static SpanData of(SpanData span) {
            boolean clean = span.getStatus().getDescription().isEmpty()
                    && span.getEvents().stream()
                            .noneMatch(event -> event.getName().equals(EXCEPTION_EVENT));
            return clean ? span : new Scrubbed(span);
        }

        private static EventData scrubbed(EventData event) {
            if (!event.getName().equals(EXCEPTION_EVENT)) {
                return event;
            }
            String type = event.getAttributes().get(EXCEPTION_TYPE);
            Attributes kept = type == null ? Attributes.empty() : Attributes.of(EXCEPTION_TYPE, type);
            return EventData.create(event.getEpochNanos(), event.getName(), kept);
        }

        @Override
        public List<EventData> getEvents() {
            return events;
        }

        @Override
        public StatusData getStatus() {
            return status;
        }
    }
}
