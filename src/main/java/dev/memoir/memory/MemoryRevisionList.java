package dev.memoir.memory;

import java.util.List;

record MemoryRevisionList(List<MemoryRevisionView> items) {
}
