-- An operator's retention of one memory kind for one tenant, overriding memoir.retention.<kind>. A null keep_for
-- keeps that tenant's memories of the kind for good, whatever the deployment's default.

create table tenant_retention (
    tenant_id  uuid     not null references tenants (id) on delete cascade,
    kind       text     not null,
    keep_for   interval,
    primary key (tenant_id, kind)
);
