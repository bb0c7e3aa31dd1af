package dev.memoir.memory.supersession;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;

import dev.memoir.jobs.Jobs;
import dev.memoir.memory.api.MemoryScreening;
import dev.memoir.memory.api.Supersession;
import dev.memoir.memory.store.MemoryRecord;
import dev.memoir.memory.store.MemoryRecordRepository;
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
class FactSupersession {

    static final TaskDescriptor<Void> JOB = TaskDescriptor.of("fact-supersession");

    private final MemoryRecordRepository records;
    private final Supersessions supersessions;
    private final NearestMemoriesJudge judge;
    private final SupersessionProperties properties;
    private final Jobs jobs;
    private final TransactionTemplate transaction;

    FactSupersession(
            MemoryRecordRepository records,
            Supersessions supersessions,
            NearestMemoriesJudge judge,
            SupersessionProperties properties,
            Jobs jobs,
            TransactionTemplate transaction) {
        this.records = records;
        this.supersessions = supersessions;
        this.judge = judge;
        this.properties = properties;
        this.jobs = jobs;
        this.transaction = transaction;
    }

    /** Queues the judgement in the transaction that adds the fact: a fact stored never lacks its job. */
    @EventListener
    void onUnjudgedFactAdded(UnjudgedFactAdded added) {
        if (properties.enabled()) {
            jobs.queue(JOB, added.tenant(), added.factId().toString());
        }
    }

    void judge(TenantId tenant, UUID factId) {
        records.findByIdAndTenantId(factId, tenant.value())
                .filter(MemoryRecord::unexpired)
                .filter(fact -> fact.getSupersededBy() == null)
                // A quarantined fact neither reaches the judge (its text is what the quarantine holds back) nor
                // takes a true memory out of every read: it is judged when released (MemoryQuarantine.release).
                .filter(fact -> fact.getScreening() == null
                        || !fact.getScreening().state().equals(MemoryScreening.QUARANTINED))
                .ifPresent(fact -> {
                    Supersession verdict = judge.judge(
                            tenant, fact.getUserId(), fact.getText(), fact.getOccurredFrom(), List.of(factId));
                    List<UUID> superseded = new ArrayList<>(verdict.superseded());
                    // An older fact the new one restates goes with it; a note or topic memory it repeats may say
                    // more.
                    superseded.addAll(verdict.repeatedFacts());
                    if (!superseded.isEmpty()) {
                        transaction.executeWithoutResult(status ->
                                supersessions.supersedeIfLive(tenant.value(), fact.getUserId(), factId, superseded));
                    }
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        CustomTask<Void> factSupersessionTask(Jobs jobs, FactSupersession supersession) {
            return jobs.tenantTask(JOB, (tenant, id) -> supersession.judge(tenant, UUID.fromString(id)));
        }
    }
}
