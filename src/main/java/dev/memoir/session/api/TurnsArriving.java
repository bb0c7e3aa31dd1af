package dev.memoir.session.api;

import java.util.List;
import java.util.UUID;

import dev.memoir.memory.MemorySettings;
import dev.memoir.tenant.TenantId;

/**
 * Turns about to be stored, published before the session is locked and before any transaction: listeners do
 * their slow preparation here (embedding a megabyte of imported turns, say), so that the locked transaction that
 * stores the turns and publishes {@link TurnsRecorded} stays short.
 */
public record TurnsArriving(TenantId tenant, UUID sessionId, MemorySettings settings, List<NewTurn> turns) {}
