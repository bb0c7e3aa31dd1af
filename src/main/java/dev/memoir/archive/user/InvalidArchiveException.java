package dev.memoir.archive.user;

import org.springframework.http.HttpStatus;

import dev.memoir.common.web.ApiException;

/** An archive that cannot be imported as it is; nothing of it was stored. */
class InvalidArchiveException extends ApiException {

    InvalidArchiveException(String message) {
        super(HttpStatus.BAD_REQUEST, "invalid-archive", message + ". Nothing of the archive was imported");
    }
}
