package dev.memoir.jobs;

import java.util.UUID;

import dev.memoir.tenant.TenantId;

/**
 * Every memory job queued for a session so far has finished (none waits, runs, waits for a retry or sits in the
 * dead-letter list). Published, outside any transaction, by the runner of the job that finished last; more jobs
 * may still be queued for the session later (a session still open).
 */
public record SessionJobsDone(TenantId tenant, UUID sessionId) {}
