package dev.memoir.session;

public record NewTurn(Role role, String content) {
}
