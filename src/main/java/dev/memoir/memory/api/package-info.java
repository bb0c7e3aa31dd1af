/**
 * The values and events of memory that other modules read and the memory module's inside builds: memories as
 * stored, searched and archived, their kinds, origins and trust, the queries and their scored results, and the
 * event of a memory's change. They live here, not in the module's top, so that the inside never reaches back up to
 * it.
 */
@NamedInterface("api")
package dev.memoir.memory.api;

import org.springframework.modulith.NamedInterface;
