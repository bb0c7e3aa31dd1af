package dev.memoir.feedback;

import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface ReplyTraceRepository extends JpaRepository<ReplyTrace, UUID> {
}
