package dev.memoir.memory;

import java.util.List;
import java.util.UUID;

import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.JpaRepository;

interface MemoryRevisionRepository extends JpaRepository<MemoryRevision, UUID> {

    List<MemoryRevision> findByMemoryIdAndVersionLessThanOrderByVersionDesc(UUID memoryId, int version, Limit limit);

    boolean existsByMemoryId(UUID memoryId);
}
