package dev.memoir.session.store;

import java.util.UUID;

/** An open session found idle, with its tenant, which its close names in every lookup (docs/scaling.md). */
public record IdleSession(UUID tenantId, UUID id) {}
