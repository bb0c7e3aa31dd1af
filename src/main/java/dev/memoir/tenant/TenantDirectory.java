package dev.memoir.tenant;

import java.util.UUID;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** Which tenants exist, for features that keep settings per tenant. */
@Component
public class TenantDirectory {

    private final TenantRepository tenants;

    TenantDirectory(TenantRepository tenants) {
        this.tenants = tenants;
    }

    @Transactional(readOnly = true)
    public boolean exists(UUID tenantId) {
        return tenants.existsById(tenantId);
    }
}
