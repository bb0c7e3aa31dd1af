/**
 * Memory records of every kind: storage, hybrid search, revisions, supersession, re-embedding; {@code /memory}.
 * <p>
 * The top of the package holds the facades other modules call: {@link dev.memoir.memory.MemoryStore} (write, add,
 * revise, merge, supersede, delete), {@link dev.memoir.memory.MemorySearches},
 * {@link dev.memoir.memory.SupersessionJudge}, {@link dev.memoir.memory.MemoryArchive},
 * {@link dev.memoir.memory.MemoryErasure}, {@link dev.memoir.memory.MemoryPurge},
 * {@link dev.memoir.memory.MemoryQuarantine}, {@link dev.memoir.memory.MemoryUsers} and
 * {@link dev.memoir.memory.MemoryDefaults}, the values only they take (among them
 * {@link dev.memoir.memory.MemoryChange}), and, package-private beside them, the {@code /memory} endpoints. The
 * values and the event that the inside builds too are in {@code api}, the named interface {@code memory::api} (among
 * them {@link dev.memoir.memory.api.DedupKey}, every form of the key that makes a write idempotent, and
 * {@link dev.memoir.memory.api.DialogueWindow}), so that no sub-package reaches back up to the top. The other
 * sub-packages are internal (Spring Modulith hides them from other modules):
 * <ul>
 * <li>{@code store}: the memory entity and its repository, new memories with the passages of long ones, embedding
 * text, an archive's memories written back, and the SQL and archive forms of vectors;</li>
 * <li>{@code revision}: a memory's earlier versions and the pages of them the API shows;</li>
 * <li>{@code search}: the hybrid (lexical and dense) search statement, its settings and query periods, and one
 * search as every entry point runs it;</li>
 * <li>{@code supersession}: the model's judgement of a new fact-bearing memory against the nearest ones, which
 * memory superseded which, the rules a client's supersession obeys (and their
 * check of an imported archive), and the background judgement of a fact added without saying what it
 * supersedes;</li>
 * <li>{@code embedding}: re-embedding after a change of embedding model, and its admin endpoint.</li>
 * </ul>
 */
@ApplicationModule(allowedDependencies = {"common", "jobs", "llm", "redaction", "tenant"})
package dev.memoir.memory;

import org.springframework.modulith.ApplicationModule;
