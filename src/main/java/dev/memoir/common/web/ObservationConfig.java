package dev.memoir.common.web;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.ObservationPredicate;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.SpanExporters;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.http.server.observation.ServerRequestObservationConvention;

/**
 * What Memoir's traces may carry, for every feature at once. The features make their own observations
 * ({@code memoir.memory.search}, {@code memoir.embedding}, {@code memoir.import}, {@code memoir.export},
 * {@code memoir.job}, {@code memoir.model.step}) with their registry; here the ones Spring makes are kept free of
 * users' data, and the spans of failures lose the exception's message ({@link ScrubbedSpanExporter}).
 */
@Configuration(proxyBeanMethods = false)
class ObservationConfig {

    /**
     * A request's span names its path's pattern ({@code /users/{userId}/export}) where Spring would put the path
     * itself, which names users and job instances.
     */
    @Bean
    ServerRequestObservationConvention serverRequestObservationConvention() {
        return new DefaultServerRequestObservationConvention() {
            @Override
            protected KeyValue httpUrl(ServerRequestObservationContext context) {
                return KeyValue.of("http.url", uri(context).getValue());
            }
        };
    }

    /**
     * No observation of /actuator requests: a scrape every few seconds, or a health probe, would otherwise be a trace
     * of its own each time and a series of http.server.requests.
     */
    @Bean
    ObservationPredicate noActuatorObservations() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext request
                && isActuatorPath(request.getCarrier().getRequestURI()));
    }

    static boolean isActuatorPath(String path) {
        return path != null && (path.equals("/actuator") || path.startsWith("/actuator/"));
    }

    /** Every span exporter (OTLP's when configured, any other bean) gets the spans scrubbed of exception messages. */
    @Bean
    SpanExporters spanExporters(ObjectProvider<SpanExporter> exporters) {
        return SpanExporters.of(exporters
                .orderedStream()
                .map(exporter -> (SpanExporter) new ScrubbedSpanExporter(exporter))
                .toList());
    }
}
