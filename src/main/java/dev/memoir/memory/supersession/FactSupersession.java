package dev.memoir.memory.supersession;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Service;

import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;

import dev.memoir.jobs.Jobs;
import dev.memoir.memory.MemoryStore;
import dev.memoir.memory.Supersession;
import dev.memoir.memory.SupersessionJudge;
import dev.memoir.tenant.TenantId;

/**
 * Judges, after a client added a fact without saying what it supersedes, which of the user's live memories the
 * fact updates, contradicts or restates, and marks those superseded by it. A background job, so that adding a fact
 * never waits for the model: the fact is live at once, and what it supersedes stops being live when the job ran.
 * A fact that merely restates an older fact supersedes it too (the client asked for the new one, and the two need
 * not both reach a reply); a note or topic memory it repeats stays, as it may say more. A retried job supersedes
 * only what is still live, and only while the new fact is.
 */
@Service
public class FactSupersession {

    public static final TaskDescriptor<Void> JOB = TaskDescriptor.of("fact-supersession");

    private final MemoryStore store;
    private final SupersessionJudge judge;

    FactSupersession(MemoryStore store, SupersessionJudge judge) {
        this.store = store;
        this.judge = judge;
    }

    void judge(TenantId tenant, UUID factId) {
        store.liveMemory(tenant, factId).ifPresent(fact -> {
            Supersession verdict = judge.judge(tenant, fact.userId(), fact.text(), fact.occurredFrom(),
                    List.of(factId));
            List<UUID> superseded = new ArrayList<>(verdict.superseded());
            // An older fact the new one restates goes with it; a note or topic memory it repeats may say more.
            superseded.addAll(verdict.repeatedFacts());
            if (!superseded.isEmpty()) {
                store.supersedeIfLive(tenant, fact.userId(), factId, superseded);
            }
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class Task {

        @Bean
        OneTimeTask<Void> factSupersessionTask(Jobs jobs, FactSupersession supersession) {
            return jobs.tenantTask(JOB, (tenant, id) -> supersession.judge(tenant, UUID.fromString(id)));
        }
    }
}
