package dev.memoir.erasure;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

@Schema(description = "What deleting a conversation removed: each of its sessions, as deleting that session would")
record ConversationErasure(String conversationId, List<SessionErasure> sessions) {}
