/**
 * The values and events of sessions that other modules read and the session module's inside builds: turns as
 * stored and as read, roles, a session's reference, and the events of turns recorded and sessions closed. They live
 * here, not in the module's top, so that the inside never reaches back up to it.
 */
@NamedInterface("api")
package dev.memoir.session.api;

import org.springframework.modulith.NamedInterface;
