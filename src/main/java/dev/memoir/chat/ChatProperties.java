package dev.memoir.chat;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** @param recentTurns turns of the current session sent verbatim with each reply, the new message included */
@ConfigurationProperties("memoir.chat")
record ChatProperties(@DefaultValue("12") int recentTurns) {
}
