package dev.memoir.support;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The spans the service exports, as an exporter beside OTLP's would get them (so after Memoir's scrubbing), held in
 * an {@link InMemorySpanExporter} while a test captures them and dropped otherwise, so that the context every test
 * class shares holds no span of the others. It is part of that one context rather than of a context of its own: a
 * second context would run a second job runner on the same queue, and a job the test waits for could run there.
 * <p>
 * Spans reach exporters in batches, so every read and every start flushes the tracer first: a span finished
 * before {@link #start()} is not seen, and none is missed after the work that made it.
 */
public final class CapturedSpans implements SpanExporter {

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final ObjectProvider<SdkTracerProvider> tracer;
    private volatile boolean capturing;

    CapturedSpans(ObjectProvider<SdkTracerProvider> tracer) {
        this.tracer = tracer;
    }

    /** Registers the exporter in the shared test context (see {@link IntegrationTest}). */
    @TestConfiguration(proxyBeanMethods = false)
    static class Config {

        @Bean
        CapturedSpans capturedSpans(ObjectProvider<SdkTracerProvider> tracer) {
            return new CapturedSpans(tracer);
        }
    }

    /** Captures the spans finished from now on. */
    public void start() {
        flushTracer();
        spans.reset();
        capturing = true;
    }

    /** Stops capturing and forgets what was captured. */
    public void stop() {
        capturing = false;
        flushTracer();
        spans.reset();
    }

    /** Every span finished since {@link #start()}. */
    public List<SpanData> finished() {
        flushTracer();
        return spans.getFinishedSpanItems();
    }

    private void flushTracer() {
        tracer.getObject().forceFlush().join(5, TimeUnit.SECONDS);
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> batch) {
        return capturing ? spans.export(batch) : CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        capturing = false;
        return spans.shutdown();
    }
}
