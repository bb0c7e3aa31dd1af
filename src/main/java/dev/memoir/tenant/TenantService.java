package dev.memoir.tenant;

import java.util.Optional;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
class TenantService {

    private final TenantRepository tenants;
    private final ApiKeyRepository apiKeys;

    TenantService(TenantRepository tenants, ApiKeyRepository apiKeys) {
        this.tenants = tenants;
        this.apiKeys = apiKeys;
    }

    @Transactional
    TenantCreated create(String name) {
        Tenant tenant = tenants.save(new Tenant(name.strip()));
        String key = ApiKeys.newKey();
        apiKeys.save(new ApiKey(tenant.getId(), ApiKeys.hash(key), key.substring(0, 8)));
        return new TenantCreated(tenant.getId(), tenant.getName(), key);
    }

    @Transactional(readOnly = true)
    Optional<TenantId> authenticate(String key) {
        return apiKeys.findByKeyHash(ApiKeys.hash(key))
                .filter(ApiKey::isActive)
                .map(apiKey -> new TenantId(apiKey.getTenantId()));
    }
}
