package dev.memoir.tenant;

import java.util.UUID;

/**
 * The tenant an authenticated request acts for. Controllers take it as a parameter; every query that reads
 * user data is scoped by it.
 */
public record TenantId(UUID value) {

    @Override
    public String toString() {
        return value.toString();
    }
}
