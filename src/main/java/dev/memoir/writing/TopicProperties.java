package dev.memoir.writing;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** @param mergeCandidates existing topic memories shown with each new summary for the add-or-merge decision */
@ConfigurationProperties("memoir.topic")
record TopicProperties(@DefaultValue("5") int mergeCandidates) {
}
