package dev.memoir.tenant;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "A tenant's API keys, oldest first, revoked ones included")
record ApiKeyList(List<ApiKeyView> items) {}
