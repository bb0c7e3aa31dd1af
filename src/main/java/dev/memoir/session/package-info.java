/**
 * Sessions and their turns, and the events that start memory writing.
 *
 * <p>The top of the package is what other modules use: the facades {@link dev.memoir.session.SessionService},
 * {@link dev.memoir.session.SessionMemoryWrite}, {@link dev.memoir.session.SessionArchive} and
 * {@link dev.memoir.session.SessionUsers}, the values they take and answer ({@link dev.memoir.session.SessionRef},
 * {@link dev.memoir.session.TurnView}, {@link dev.memoir.session.NewTurn}, {@link dev.memoir.session.Role} and the
 * like) and the events they publish ({@link dev.memoir.session.TurnsArriving},
 * {@link dev.memoir.session.TurnsRecorded}, {@link dev.memoir.session.SessionClosed}). The sub-packages are the
 * module's inside, which Spring Modulith keeps other modules out of:
 * <ul>
 * <li>{@code store}: the session and turn entities, their repositories and the stored memory settings;</li>
 * <li>{@code web}: the {@code /sessions} endpoints and their request and response types;</li>
 * <li>{@code imports}: the import of existing dialogue into a session ({@code POST /sessions/{id}/turns});</li>
 * <li>{@code closing}: closing the sessions a client left open;</li>
 * <li>{@code config}: the {@code memoir.session.*} settings, and the allowed clock skew offered to other modules.</li>
 * </ul>
 */
@ApplicationModule(allowedDependencies = {"jobs", "memory", "tenant", "web"})
package dev.memoir.session;

import org.springframework.modulith.ApplicationModule;
