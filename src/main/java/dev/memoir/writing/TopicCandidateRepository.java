package dev.memoir.writing;

import java.util.List;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

import dev.memoir.memory.Speaker;

interface TopicCandidateRepository extends JpaRepository<TopicCandidate, UUID> {

    List<TopicCandidate> findBySessionIdAndSpeakerAndAppliedAtIsNullOrderByPositionAsc(UUID sessionId,
            Speaker speaker);
}
