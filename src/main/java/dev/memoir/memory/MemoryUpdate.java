package dev.memoir.memory;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import dev.memoir.web.VisibleText;

@Schema(description = "New text for a memory; the memory is re-embedded")
record MemoryUpdate(@NotBlank @VisibleText @Size(max = 20000) String text) {
}
