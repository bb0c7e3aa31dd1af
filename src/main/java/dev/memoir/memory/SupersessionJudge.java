package dev.memoir.memory;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Service;

import dev.memoir.memory.api.MemoryKind;
import dev.memoir.memory.api.Supersession;
import dev.memoir.memory.supersession.NearestMemoriesJudge;
import dev.memoir.tenant.TenantId;

/**
 * Judges, before a fact-bearing memory is stored, how it relates to the user's nearest live fact-bearing memories
 * (one model call, none when no memory is alike enough; see {@link NearestMemoriesJudge}), for the modules that
 * write such memories. Called outside any transaction (it waits for the model); the writer applies the verdict when
 * it stores the memory.
 */
@Service
public class SupersessionJudge {

    private final NearestMemoriesJudge judge;

    SupersessionJudge(NearestMemoriesJudge judge) {
        this.judge = judge;
    }

    /**
     * What storing {@code text} should do to the user's live memories.
     *
     * @param said when what the new memory states was said; null for now
     * @param excluded memories not to judge against (the new memory itself, when it is already stored)
     */
    public Supersession judge(TenantId tenant, String userId, String text, Instant said, List<UUID> excluded) {
        return judge.judge(tenant, userId, text, said, excluded);
    }

    /** As {@link #judge(TenantId, String, String, Instant, List)}, against memories of some fact-bearing kinds. */
    public Supersession judge(
            TenantId tenant, String userId, String text, Instant said, List<UUID> excluded, Set<MemoryKind> kinds) {
        return judge.judge(tenant, userId, text, said, excluded, kinds);
    }
}
