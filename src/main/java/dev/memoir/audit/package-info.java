/**
 * The audit trail (docs/trust.md, "Audit trail"): an append-only, hash-chained record per tenant of what was done
 * to its memory and what each reply and context request was shown, by whom and when, never what a memory said.
 * <p>Other modules publish {@link dev.memoir.common.audit.Audited} (or the memory, session and archive events this
 * module listens to) in the transaction of the change; {@code AuditLog} writes the entry there. {@code AuditSealer}
 * chains the committed entries ({@code audit-seal} job, and before every read); {@code AuditChainCheck} verifies the
 * chain; {@code AuditPurge} applies {@code memoir.audit.keep-for}. Tenants read their trail at {@code /audit}, the
 * operator any tenant's at {@code /admin/tenants/{id}/audit}.
 */
@ApplicationModule(allowedDependencies = {"archive::api", "common", "jobs", "memory::api", "session::api", "tenant"})
package dev.memoir.audit;

import org.springframework.modulith.ApplicationModule;
