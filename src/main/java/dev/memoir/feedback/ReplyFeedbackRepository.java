package dev.memoir.feedback;

import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface ReplyFeedbackRepository extends JpaRepository<ReplyFeedback, UUID> {
}
