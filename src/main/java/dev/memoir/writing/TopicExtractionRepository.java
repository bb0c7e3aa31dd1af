package dev.memoir.writing;

import java.util.List;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

import dev.memoir.memory.Speaker;

interface TopicExtractionRepository extends JpaRepository<TopicExtraction, UUID> {

    boolean existsBySessionIdAndSpeaker(UUID sessionId, Speaker speaker);
}
