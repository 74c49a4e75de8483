package io.quiver.tools.fs.internal;

/**
 * A failure the model reads (an {@code isError} result): a path outside the roots, a missing file, a
 * limit. Its message is complete and never names anything outside the roots.
 */
final class FsException extends Exception {

    private static final long serialVersionUID = 1L;

    FsException(String message) {
        super(message, null, false, false);
    }
}
