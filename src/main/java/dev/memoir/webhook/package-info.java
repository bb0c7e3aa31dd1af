/**
 * Webhooks: a tenant's endpoints, told of memory events by signed deliveries (Standard Webhooks), queued in the
 * transaction of the change as durable jobs, retried with back-off and dead-lettered after the last attempt.
 */
@ApplicationModule(
        allowedDependencies = {
            "archive::api",
            "common",
            "jobs",
            "memory",
            "memory::api",
            "session",
            "session::api",
            "tenant",
            "usage"
        })
package dev.memoir.webhook;

import org.springframework.modulith.ApplicationModule;
