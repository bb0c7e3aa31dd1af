package dev.memoir.writing;

import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

interface MemoProgressRepository extends JpaRepository<MemoProgress, UUID> {
}
