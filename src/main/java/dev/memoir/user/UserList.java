package dev.memoir.user;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@Schema(description = "The tenant's users by user id, and where the next page starts")
@JsonInclude(JsonInclude.Include.NON_NULL)
record UserList(
        List<UserView> items,

        @Schema(description = "Pass as cursor to get the next page; absent on the last page")
        String nextCursor) {}
