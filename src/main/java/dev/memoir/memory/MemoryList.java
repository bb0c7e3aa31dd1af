package dev.memoir.memory;

import java.util.List;

record MemoryList(List<MemoryView> items) {
}
