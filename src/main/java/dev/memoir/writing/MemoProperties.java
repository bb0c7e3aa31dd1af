package dev.memoir.writing;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param turnsPerMemo an open session is written into memos each time this many turns have come since its last
 *                     memo, so that a long session is memorised while it runs; the rest is written at close
 */
@Validated
@ConfigurationProperties("memoir.memo")
record MemoProperties(@DefaultValue("20") @Min(1) int turnsPerMemo) {}
