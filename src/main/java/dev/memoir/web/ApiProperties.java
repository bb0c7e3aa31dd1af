package dev.memoir.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/** @param maxRequestSize requests with a larger body are refused with 413 */
@ConfigurationProperties("memoir.api")
record ApiProperties(@DefaultValue("1MB") DataSize maxRequestSize) {
}
