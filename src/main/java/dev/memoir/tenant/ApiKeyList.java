package dev.memoir.tenant;

import java.util.List;

@io.swagger.v3.oas.annotations.media.Schema(description = "A tenant's API keys, oldest first, revoked ones included")
record ApiKeyList(List<ApiKeyView> items) {
}
