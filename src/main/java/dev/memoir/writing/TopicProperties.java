package dev.memoir.writing;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** @param mergeCandidates existing topic memories shown with each new summary for the add-or-merge decision */
@Validated
@ConfigurationProperties("memoir.topic")
record TopicProperties(@DefaultValue("5") @Min(1) int mergeCandidates) {}
