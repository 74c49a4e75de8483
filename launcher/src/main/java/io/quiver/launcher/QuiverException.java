package io.quiver.launcher;

/** Quiver could not start; the message says why in words an operator can act on. */
public final class QuiverException extends Exception {

    private static final long serialVersionUID = 1L;

    public QuiverException(String message, Throwable cause) {
        super(message, cause);
    }
}
