package dev.memoir.tenant;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "tenants")
class Tenant {

    @Id
    private UUID id;

    private String name;

    private Instant createdAt;

    protected Tenant() {}

    Tenant(String name) {
        this.id = UUID.randomUUID();
        this.name = name;
        this.createdAt = Instant.now();
    }

    UUID getId() {
        return id;
    }

    String getName() {
        return name;
    }
}
