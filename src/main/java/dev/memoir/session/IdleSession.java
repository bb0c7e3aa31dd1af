package dev.memoir.session;

import java.util.UUID;

/** An open session found idle, with its tenant, which its close names in every lookup (docs/scaling.md). */
record IdleSession(UUID tenantId, UUID id) {
}
