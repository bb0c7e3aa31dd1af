package dev.memoir.memory;

import java.util.List;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface MemoryRevisionRepository extends JpaRepository<MemoryRevision, UUID> {

    List<MemoryRevision> findByMemoryIdOrderByVersionDesc(UUID memoryId);

    boolean existsByMemoryId(UUID memoryId);
}
