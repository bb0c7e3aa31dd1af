package dev.memoir.webhook;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import org.springframework.stereotype.Component;

/**
 * One signed POST of a delivery to its endpoint, after checking the endpoint's URL again (what a name resolves to
 * may have changed since it was registered).
 */
@Component
class WebhookSender {

    /** How an attempt went: the endpoint's status when it answered, and why it failed when it did. */
    record Attempt(Integer status, String error) {

        boolean delivered() {
            return error == null;
        }
    }

    private final WebhookTargets targets;
    private final HttpClient http;
    private final Duration timeout;

    WebhookSender(WebhookTargets targets, WebhookProperties properties) {
        this.targets = targets;
        this.timeout = properties.timeout();
        // Redirects are not followed: a redirect could lead anywhere, past the checks of the target.
        this.http = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(properties.timeout())
                .build();
    }

    Attempt send(String url, String secret, UUID id, String payload) {
        String refused = targets.problem(url);
        if (refused != null) {
            return new Attempt(null, "the endpoint's URL " + refused);
        }
        long timestamp = Instant.now().getEpochSecond();
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "Memoir-Webhooks")
                .header("webhook-id", id.toString())
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", WebhookSigner.signature(secret, id.toString(), timestamp, payload))
                .POST(HttpRequest.BodyPublishers.ofString(payload))
                .build();
        int status;
        try {
            // The answer's body is not read: bounded at nothing.
            status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (HttpTimeoutException e) {
            return new Attempt(null, "no answer within " + timeout.toMillis() + " ms");
        } catch (IOException e) {
            return new Attempt(null, "could not be reached: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Attempt(null, "interrupted");
        }
        if (status < 200 || status > 299) {
            return new Attempt(status, "answered " + status);
        }
        return new Attempt(status, null);
    }
}
