/**
 * Sessions and their turns, and the events that start memory writing.
 *
 * <p>The top of the package holds the facades other modules call: {@link dev.memoir.session.SessionService}
 * (sessions, and the door for storing turns), {@link dev.memoir.session.TurnReader} (turns read back),
 * {@link dev.memoir.session.SessionDeletion} (an erasure's deletes), {@link dev.memoir.session.SessionMemoryWrite} (the shape of a memory write from a session),
 * {@link dev.memoir.session.SessionArchive} (a user's sessions as an archive carries them),
 * {@link dev.memoir.session.SessionUsers} (the users sessions belong to) and {@link dev.memoir.session.DialogueFormat}.
 * The values they take and answer and the events the module publishes are in {@code api}, the named interface
 * {@code session::api} ({@link dev.memoir.session.api.SessionRef}, {@link dev.memoir.session.api.TurnView},
 * {@link dev.memoir.session.api.NewTurn}, {@link dev.memoir.session.api.Role}; {@link dev.memoir.session.api.TurnsArriving},
 * {@link dev.memoir.session.api.TurnsRecorded}, {@link dev.memoir.session.api.SessionClosed} and the like): the inside
 * builds them too, and reaching them there keeps it from reaching back up to the facades.
 *
 * <p>The other sub-packages are the module's inside, which Spring Modulith keeps every other module out of:
 * <ul>
 * <li>{@code store}: the session and turn entities and their repositories, the stored memory settings, the locks
 * every writer takes (the user's, then the session's);</li>
 * <li>{@code turns}: storing new turns (appended, imported, replies), dated and checked;</li>
 * <li>{@code closing}: closing a session, as its client asks or when it lies idle (the recurring
 * {@code idle-session-close} job);</li>
 * <li>{@code imports}: {@code POST /sessions/{id}/turns}, a chat log sorted into dialogue and skipped messages;</li>
 * <li>{@code conversations}: {@code /conversations}, a client's conversation kept whole by its own id, dialogue as
 * turns and tool calls, tool and system messages beside them;</li>
 * <li>{@code web}: the {@code /sessions} endpoints and the views of sessions they answer;</li>
 * <li>{@code config}: the {@code memoir.session.*} settings, and the allowed clock skew offered to every module as
 * {@link dev.memoir.common.wire.ClockSkew}.</li>
 * </ul>
 */
@ApplicationModule(allowedDependencies = {"common", "jobs", "memory", "memory::api", "redaction", "tenant"})
package dev.memoir.session;

import org.springframework.modulith.ApplicationModule;
