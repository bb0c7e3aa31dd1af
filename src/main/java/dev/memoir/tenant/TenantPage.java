package dev.memoir.tenant;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A page of tenants, oldest first")
record TenantPage(
        List<TenantView> items,

        @Schema(description = "Pass as `cursor` for the next page; absent on the last page")
        String nextCursor) {}
