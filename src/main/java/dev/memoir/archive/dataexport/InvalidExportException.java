package dev.memoir.archive.dataexport;

import org.springframework.http.HttpStatus;

import dev.memoir.archive.api.ExportSource;
import dev.memoir.common.web.ApiException;

/** A data export that cannot be read as a whole; nothing of it was stored. */
class InvalidExportException extends ApiException {

    InvalidExportException(ExportSource source, String message) {
        super(
                HttpStatus.BAD_REQUEST,
                "invalid-export",
                "Not a readable " + source.product() + " export: " + message + ". Nothing of it was imported");
    }
}
