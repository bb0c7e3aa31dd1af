package dev.memoir.session.imports;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.memoir.session.api.Role;

class RoleTest {

    @Test
    void onlyAUserOrAssistantMessageIsATurnAndItsRoleIsReadExactly() {
        assertThat(Role.ofMessageRole("user")).contains(Role.USER);
        assertThat(Role.ofMessageRole("assistant")).contains(Role.ASSISTANT);
        assertThat(Role.ofMessageRole("system")).isEmpty();
        assertThat(Role.ofMessageRole("tool")).isEmpty();
        assertThat(Role.ofMessageRole("User"))
                .as("the OpenAI-compatible endpoint reads roles exactly")
                .isEmpty();
        assertThat(Role.ofMessageRole(null)).isEmpty();
        assertThat(TurnsImport.MessageRole.DEVELOPER.dialogue()).isEmpty();
        assertThat(TurnsImport.MessageRole.ASSISTANT.dialogue()).contains(Role.ASSISTANT);
    }
}
