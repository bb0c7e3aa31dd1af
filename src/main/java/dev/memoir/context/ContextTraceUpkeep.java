package dev.memoir.context;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;

import dev.memoir.jobs.Jobs;
import dev.memoir.memory.UserMemoryErased;

/**
 * Context traces do not outlive what they name: a user's go in the transaction that erases the user, and every trace
 * is purged {@code memoir.context-traces.keep} after its request by the {@code context-trace-purge} job.
 */
@Component
class ContextTraceUpkeep {

    private static final Logger log = LoggerFactory.getLogger(ContextTraceUpkeep.class);

    static final String JOB = "context-trace-purge";

    private final JdbcClient jdbc;
    private final ContextTraceProperties properties;

    ContextTraceUpkeep(JdbcClient jdbc, ContextTraceProperties properties) {
        this.jdbc = jdbc;
        this.properties = properties;
    }

    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    void onUserErased(UserMemoryErased erased) {
        jdbc.sql("delete from context_traces where tenant_id = ? and user_id = ?")
                .param(erased.tenant().value())
                .param(erased.userId())
                .update();
    }

    int purge() {
        int purged = jdbc.sql("delete from context_traces where created_at < now() - make_interval(secs => ?)")
                .param(properties.keep().toSeconds())
                .update();
        if (purged > 0) {
            log.info("Purged {} context traces older than {}", purged, properties.keep());
        }
        return purged;
    }

    @Configuration(proxyBeanMethods = false)
    static class JobType {

        @Bean
        RecurringTask<Void> contextTracePurge(Jobs jobs, ContextTraceUpkeep upkeep, ContextTraceProperties properties) {
            return jobs.recurringTask(JOB, properties.purgeEvery(), upkeep::purge);
        }
    }
}
