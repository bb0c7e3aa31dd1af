package dev.memoir.reflection;

import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface ReplyFeedbackRepository extends JpaRepository<ReplyFeedback, UUID> {
}
