package dev.memoir.session.web;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@Schema(description = "A user's sessions, newest first, without their turns, and where the next page starts")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionList(
        List<SessionView> items,

        @Schema(description = "Pass as cursor to get the next page; absent on the last page")
        String nextCursor) {}
