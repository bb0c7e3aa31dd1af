package dev.memoir;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.memoir.support.IntegrationTest;

/**
 * The schema stays ready to be distributed by tenant (docs/scaling.md): every table of a tenant's data carries
 * tenant_id in its primary key and in every unique constraint and index, and every foreign key between such tables
 * matches tenant_id on both sides, so no reference can cross tenants. A table added later is a tenant's table unless
 * it is named below. scripts/citus-distribute.sql, the step that distributes the schema on Citus (CitusTest), holds
 * the same two lists: a directory table becomes a reference table, a service table stays on the coordinator, every
 * other table is distributed by tenant_id.
 */
class ShardReadySchemaTest extends IntegrationTest {

    /** Small tables every node would hold whole (Citus reference tables): tenants and their keys, found by hash. */
    private static final Set<String> DIRECTORY = Set.of("tenants", "api_keys");

    /** The service's own tables, kept on the coordinator: migrations and the job queue, whose jobs may be no tenant's. */
    private static final Set<String> SERVICE =
            Set.of("flyway_schema_history", "scheduled_tasks", "failed_jobs", "job_runs");

    @Autowired
    JdbcClient jdbc;

    record Constraint(
            String table,
            String name,
            String type,
            List<String> columns,
            String referenced,
            List<String> referencedColumns) {}

    private List<String> tenantTables() {
        return jdbc.sql("""
                select c.relname from pg_class c
                where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
                order by 1""").query(String.class).list().stream()
                .filter(t -> !DIRECTORY.contains(t) && !SERVICE.contains(t))
                .toList();
    }

    /** Primary keys, unique constraints and foreign keys of the tables, the partitions' copies left out. */
    private List<Constraint> constraints() {
        return jdbc.sql("""
                select c.conrelid::regclass::text as tbl, c.conname, c.contype::text,
                       array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i)
                             join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i) as cols,
                       c.confrelid::regclass::text as referenced,
                       array(select a.attname::text from unnest(c.confkey) with ordinality k(n, i)
                             join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i) as refcols
                from pg_constraint c join pg_class r on r.oid = c.conrelid
                where r.relnamespace = 'public'::regnamespace and not r.relispartition and c.contype in ('p', 'u', 'f')
                  and c.conparentid = 0""")
                .query((rs, row) -> new Constraint(
                        rs.getString("tbl"),
                        rs.getString("conname"),
                        rs.getString("contype"),
                        List.of((String[]) rs.getArray("cols").getArray()),
                        rs.getString("referenced"),
                        rs.getArray("refcols") == null
                                ? List.of()
                                : List.of((String[]) rs.getArray("refcols").getArray())))
                .list();
    }

    @Test
    void everyTenantTableHasANotNullTenantIdAndAPrimaryKeyThatHoldsIt() {
        List<String> tables = tenantTables();
        assertThat(tables)
                .as("the tenant tables checked")
                .contains("sessions", "turns", "memory_records", "memory_revisions", "episodes", "reply_traces");
        for (String table : tables) {
            assertThat(jdbc.sql("""
                    select count(*) from information_schema.columns
                    where table_schema = 'public' and table_name = ? and column_name = 'tenant_id' and is_nullable = 'NO'
                    """).param(table).query(Integer.class).single())
                    .as("%s.tenant_id, not null", table)
                    .isEqualTo(1);
        }
        List<Constraint> keys =
                constraints().stream().filter(c -> c.type().equals("p")).toList();
        assertThat(tables)
                .allSatisfy(table -> assertThat(keys)
                        .filteredOn(k -> k.table().equals(table))
                        .as("%s's primary key", table)
                        .singleElement()
                        .satisfies(k -> assertThat(k.columns()).contains("tenant_id")));
    }

    @Test
    void everyUniqueConstraintAndUniqueIndexOfATenantTableHoldsTenantId() {
        List<String> tables = tenantTables();
        assertThat(constraints())
                .filteredOn(c -> c.type().equals("u") && tables.contains(c.table()))
                .isNotEmpty()
                .allSatisfy(c -> assertThat(c.columns()).as(c.name()).contains("tenant_id"));
        List<String> uniqueIndexesWithoutTenant = jdbc.sql("""
                select i.indexrelid::regclass::text from pg_index i join pg_class t on t.oid = i.indrelid
                where i.indisunique and t.relnamespace = 'public'::regnamespace and not t.relispartition
                  and t.relname = any(?)
                  and not exists (select 1 from pg_attribute a
                                  where a.attrelid = t.oid and a.attname = 'tenant_id' and a.attnum = any(i.indkey))""")
                .param(tables.toArray(String[]::new))
                .query(String.class)
                .list();
        assertThat(uniqueIndexesWithoutTenant).isEmpty();
    }

    @Test
    void noForeignKeyCrossesTenants() {
        List<String> tables = tenantTables();
        List<Constraint> foreignKeys =
                constraints().stream().filter(c -> c.type().equals("f")).toList();
        assertThat(foreignKeys)
                .filteredOn(f -> tables.contains(f.table()))
                .isNotEmpty()
                .allSatisfy(f -> {
                    if (DIRECTORY.contains(f.referenced())) {
                        // A row's own tenant, in a table every node holds.
                        assertThat(f.columns()).as(f.name()).containsExactly("tenant_id");
                    } else {
                        assertThat(tables)
                                .as("%s references a tenant's table", f.name())
                                .contains(f.referenced());
                        int position = f.columns().indexOf("tenant_id");
                        assertThat(position).as("%s holds tenant_id", f.name()).isNotNegative();
                        assertThat(f.referencedColumns().get(position))
                                .as("%s matches tenant_id to tenant_id", f.name())
                                .isEqualTo("tenant_id");
                    }
                });
        assertThat(foreignKeys)
                .filteredOn(f -> SERVICE.contains(f.table()) || DIRECTORY.contains(f.table()))
                .as("service and directory tables reference no tenant's table")
                .allSatisfy(f -> assertThat(f.referenced()).isIn(DIRECTORY));
    }

    @Test
    void rowsThatAnInstanceOlderThanTheTenantKeysWritesWithoutATenantGetTheirParentsTenant() {
        String key = api.newTenant();
        String session = api.newSession(key, "old", null);
        UUID tenant = jdbc.sql("select tenant_id from sessions where id = ?")
                .param(UUID.fromString(session))
                .query(UUID.class)
                .single();
        UUID turn = UUID.randomUUID();

        // As an instance from before V36 writes a turn, during a rolling upgrade: no tenant_id.
        jdbc.sql("""
                insert into turns (id, session_id, seq, role, content, created_at, occurred_at)
                values (?, ?, 0, 'USER', 'Written by an older instance', now(), now())""").params(turn, UUID.fromString(session)).update();
        jdbc.sql("insert into reply_traces (turn_id, memory_ids, scores, cited_ids) values (?, '{}', '{}', '{}')")
                .param(turn)
                .update();

        assertThat(jdbc.sql("select tenant_id from turns where id = ?")
                        .param(turn)
                        .query(UUID.class)
                        .single())
                .isEqualTo(tenant);
        assertThat(jdbc.sql("select tenant_id from reply_traces where turn_id = ?")
                        .param(turn)
                        .query(UUID.class)
                        .single())
                .isEqualTo(tenant);
    }
}
