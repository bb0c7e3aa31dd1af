package dev.memoir.archive.api;

import dev.memoir.tenant.TenantId;

/**
 * An import of a user finished: a user archive (published inside its transaction, so with it or not at all) or an
 * assistant's export (published once its last conversation is stored). {@code what} is {@code user-archive},
 * {@code chatgpt} or {@code claude}; {@code sessions} counts the sessions it stored.
 */
public record ImportFinished(TenantId tenant, String userId, String what, long sessions) {}
