package dev.memoir.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.memoir.support.Api;
import dev.memoir.support.IntegrationTest;

import tools.jackson.databind.JsonNode;

class ApiKeyManagementTest extends IntegrationTest {

    private record NewTenant(String id, String key) {}

    private NewTenant tenant(String name) {
        Api.Response created = api.createTenant(name);
        return new NewTenant(created.text("id"), created.text("apiKey"));
    }

    private int statusWith(String key) {
        return api.get(key, "/sessions?userId=someone").status();
    }

    private List<JsonNode> keysOf(String tenantId) {
        return items(api.get(Api.BOOTSTRAP_KEY, "/admin/tenants/" + tenantId + "/keys"));
    }

    @Test
    void aSecondKeyWorksBesideTheFirstAndARevokedKeyIsRefusedAtOnce() {
        NewTenant tenant = tenant("keys");
        Api.Response second = api.send("POST", "/admin/tenants/" + tenant.id() + "/keys", Api.BOOTSTRAP_KEY, null);
        assertThat(second.status()).isEqualTo(201);
        String secondKey = second.text("apiKey");
        assertThat(statusWith(tenant.key())).isEqualTo(200);
        assertThat(statusWith(secondKey)).isEqualTo(200);

        String firstId = keysOf(tenant.id()).getFirst().path("id").asString();
        Api.Response revoked =
                api.send("DELETE", "/admin/tenants/" + tenant.id() + "/keys/" + firstId, Api.BOOTSTRAP_KEY, null);

        assertThat(revoked.status()).isEqualTo(200);
        assertThat(revoked.body().path("revokedAt").isMissingNode()).isFalse();
        assertThat(statusWith(tenant.key())).isEqualTo(401);
        assertThat(statusWith(secondKey)).isEqualTo(200);
        assertThat(api.send("DELETE", "/admin/tenants/" + tenant.id() + "/keys/" + firstId, Api.BOOTSTRAP_KEY, null)
                        .body()
                        .path("revokedAt")
                        .asString())
                .isEqualTo(revoked.body().path("revokedAt").asString());
    }

    @Test
    void rotatingAKeyIssuesANewOneAndRefusesTheOldOne() {
        NewTenant tenant = tenant("rotation");
        String keyId = keysOf(tenant.id()).getFirst().path("id").asString();

        Api.Response rotated = api.send(
                "POST", "/admin/tenants/" + tenant.id() + "/keys/" + keyId + "/rotate", Api.BOOTSTRAP_KEY, null);

        assertThat(rotated.status()).isEqualTo(201);
        String newKey = rotated.text("apiKey");
        assertThat(newKey).isNotEqualTo(tenant.key());
        assertThat(statusWith(tenant.key())).isEqualTo(401);
        assertThat(statusWith(newKey)).isEqualTo(200);
        assertThat(api.send(
                                "POST",
                                "/admin/tenants/" + tenant.id() + "/keys/" + keyId + "/rotate",
                                Api.BOOTSTRAP_KEY,
                                null)
                        .status())
                .isEqualTo(409);
    }

    @Test
    void keysAreListedByPrefixAndDatesNeverTheKeyItself() {
        NewTenant tenant = tenant("listing");

        Api.Response listed = api.get(Api.BOOTSTRAP_KEY, "/admin/tenants/" + tenant.id() + "/keys");

        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.raw()).doesNotContain(tenant.key()).doesNotContain("hash");
        JsonNode key = items(listed).getFirst();
        assertThat(tenant.key()).startsWith(key.path("prefix").asString());
        assertThat(key.path("createdAt").asString()).isNotBlank();
    }

    @Test
    void aKeyIsManagedOnlyThroughItsOwnTenant() {
        NewTenant owner = tenant("owner");
        NewTenant other = tenant("other");
        String keyId = keysOf(owner.id()).getFirst().path("id").asString();

        assertThat(api.send("DELETE", "/admin/tenants/" + other.id() + "/keys/" + keyId, Api.BOOTSTRAP_KEY, null)
                        .status())
                .isEqualTo(404);
        assertThat(api.send("POST", "/admin/tenants/" + UUID.randomUUID() + "/keys", Api.BOOTSTRAP_KEY, null)
                        .status())
                .isEqualTo(404);
        assertThat(statusWith(owner.key())).isEqualTo(200);
    }

    @Test
    void aTenantKeyCannotListTenantsNorManageKeys() {
        NewTenant tenant = tenant("not-an-operator");

        assertThat(api.get(tenant.key(), "/admin/tenants").status()).isEqualTo(401);
        assertThat(api.send("POST", "/admin/tenants/" + tenant.id() + "/keys", tenant.key(), null)
                        .status())
                .isEqualTo(401);
        assertThat(api.get(tenant.key(), "/admin/tenants/" + tenant.id() + "/keys")
                        .status())
                .isEqualTo(401);
    }

    @Test
    void tenantsArePagedByCursorWithEveryTenantShownOnce() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            created.add(tenant("paged-" + i).id());
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            Api.Response page =
                    api.get(Api.BOOTSTRAP_KEY, "/admin/tenants?limit=2" + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).isEqualTo(200);
            items(page).forEach(t -> seen.add(t.path("id").asString()));
            if (cursor == null) {
                // A tenant created while paging comes after every page already read.
                created.add(tenant("paged-late").id());
            }
            cursor = page.body().path("nextCursor").isString()
                    ? page.body().path("nextCursor").asString()
                    : null;
        } while (cursor != null);

        assertThat(seen).doesNotHaveDuplicates().containsAll(created);
        assertThat(api.get(Api.BOOTSTRAP_KEY, "/admin/tenants?cursor=garbage").status())
                .isEqualTo(400);
    }
}
