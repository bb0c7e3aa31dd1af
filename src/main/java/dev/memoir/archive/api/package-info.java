/**
 * The values the archive module answers and announces, which its inside builds and its callers read: an import's
 * report, the export sources, what a user import stored, and the event that an import finished. They live here,
 * not in the module's top, so that the inside never reaches back up to it.
 */
@NamedInterface("api")
package dev.memoir.archive.api;

import org.springframework.modulith.NamedInterface;
