package dev.memoir.webhook;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.memoir.common.web.Cursor;
import dev.memoir.common.wire.FieldConstraints;
import dev.memoir.tenant.TenantId;

@RestController
@RequestMapping("/webhooks")
@Tag(name = "Webhooks", description = "Signed deliveries of memory events to the tenant's endpoints")
class WebhookController {

    private final Webhooks webhooks;

    WebhookController(Webhooks webhooks) {
        this.webhooks = webhooks;
    }

    @PostMapping
    @Operation(
            summary = "Register an endpoint for memory events",
            description = "Memoir generates the endpoint's signing secret and returns it once. Deliveries follow "
                    + "Standard Webhooks: POSTed JSON {type, timestamp, data} with webhook-id, webhook-timestamp and "
                    + "webhook-signature (v1, HMAC-SHA256 over id.timestamp.body). See docs/api.md#webhooks.",
            responses = {
                @ApiResponse(responseCode = "201", description = "Registered; the answer holds the secret"),
                @ApiResponse(
                        responseCode = "400",
                        description = "A URL Memoir does not deliver to (not http or "
                                + "https, credentials, an address that is not globally reachable, however IPv6 spells "
                                + "it), or an unknown event"),
                @ApiResponse(
                        responseCode = "409",
                        description = "too-many-webhooks: the tenant has as many endpoints as "
                                + "memoir.webhooks.max-endpoints allows")
            })
    ResponseEntity<WebhookView> register(TenantId tenant, @Valid @RequestBody WebhookCreate request) {
        WebhookView created = webhooks.register(tenant, request);
        return ResponseEntity.created(URI.create("/webhooks/" + created.id())).body(created);
    }

    @GetMapping
    @Operation(summary = "The tenant's endpoints, without their secrets")
    Map<String, List<WebhookView>> list(TenantId tenant) {
        return Map.of("items", webhooks.list(tenant));
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(
            summary = "Delete an endpoint and its deliveries; those still queued are dropped",
            responses = {
                @ApiResponse(responseCode = "204"),
                @ApiResponse(responseCode = "404", description = "No such endpoint for this tenant")
            })
    void delete(TenantId tenant, @PathVariable UUID id) {
        webhooks.delete(tenant, id);
    }

    @PostMapping("/{id}/test")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(
            summary = "Queue a webhook.test delivery to the endpoint",
            responses = {
                @ApiResponse(responseCode = "202", description = "Queued; the answer names the delivery"),
                @ApiResponse(responseCode = "404", description = "No such endpoint for this tenant")
            })
    Map<String, UUID> test(TenantId tenant, @PathVariable UUID id) {
        return Map.of("deliveryId", webhooks.test(tenant, id));
    }

    @Schema(description = "Deliveries, newest first, and where the next page starts")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record DeliveryList(
            List<DeliveryView> items,

            @Schema(description = "Pass as cursor to get the next page; absent on the last page")
            String nextCursor) {}

    @GetMapping("/{id}/deliveries")
    @Operation(
            summary = "The endpoint's deliveries, newest first, with their attempts and outcome",
            description = "nextCursor is present when more deliveries follow: pass it back as cursor for the next "
                    + "page. Delivered deliveries are kept for memoir.webhooks.keep-delivered.",
            responses = {
                @ApiResponse(responseCode = "200"),
                @ApiResponse(responseCode = "400", description = "Invalid limit or cursor"),
                @ApiResponse(responseCode = "404", description = "No such endpoint for this tenant")
            })
    DeliveryList deliveries(
            TenantId tenant,
            @PathVariable UUID id,
            @Parameter(description = "Deliveries per page, 1 to " + FieldConstraints.PAGE)
                    @RequestParam(defaultValue = "" + FieldConstraints.PAGE_DEFAULT)
                    @Min(1)
                    @Max(FieldConstraints.PAGE)
                    int limit,
            @Parameter(
                            description = "Where the page starts: the previous page's nextCursor; omit for the first "
                                    + "page")
                    @RequestParam(required = false)
                    @Size(max = FieldConstraints.CURSOR)
                    String cursor) {
        Cursor.Page<Webhooks.ListedDelivery> page = Cursor.page(
                webhooks.deliveries(tenant, id, Cursor.decode(cursor, "deliveries", 3), limit + 1),
                limit,
                listed -> Cursor.encode(
                        "deliveries",
                        listed.view().createdAt(),
                        listed.seq(),
                        listed.view().id()));
        return new DeliveryList(
                page.items().stream().map(Webhooks.ListedDelivery::view).toList(), page.nextCursor());
    }
}
