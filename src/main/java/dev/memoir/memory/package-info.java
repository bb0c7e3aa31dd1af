/**
 * Memory records of every kind: storage, hybrid search, revisions, supersession, re-embedding; {@code /memory}.
 * <p>
 * The top of the package is what other modules use: the facades {@link dev.memoir.memory.MemoryStore} (write,
 * add, revise, merge, supersede, delete), {@link dev.memoir.memory.MemorySearches}, {@link
 * dev.memoir.memory.SupersessionJudge}, {@link dev.memoir.memory.MemoryArchive}, {@link
 * dev.memoir.memory.MemoryErasure}, {@link dev.memoir.memory.MemoryPurge}, {@link dev.memoir.memory.MemoryUsers} and
 * {@link dev.memoir.memory.MemoryDefaults}, and the values and events they take and answer. Its sub-packages are
 * internal (Spring Modulith hides them from other modules):
 * <ul>
 * <li>{@code store}: the memory entity and its repository, passages of long memories, embedding text and the SQL
 * values of native queries;</li>
 * <li>{@code revision}: a memory's earlier versions and the pages of them the API shows;</li>
 * <li>{@code search}: the hybrid (lexical and dense) search statement, its settings and query periods;</li>
 * <li>{@code supersession}: which memory superseded which, the rules a client's supersession obeys, and the
 * background judgement of a fact added without saying what it supersedes;</li>
 * <li>{@code embedding}: re-embedding after a change of embedding model, and its admin endpoint;</li>
 * <li>{@code web}: the {@code /memory} endpoints and their request bodies.</li>
 * </ul>
 */
@ApplicationModule(allowedDependencies = {"jobs", "llm", "tenant", "web"})
package dev.memoir.memory;

import org.springframework.modulith.ApplicationModule;
