package io.quiver.api.operator;

/**
 * Something an operator should fix, in one line: a configuration value that was not taken, a file in
 * {@code deploy/} that was refused. It stays listed until its cause is gone.
 *
 * @param subject what it is about: a file, a configuration, a bundle
 * @param reason what is wrong and what the server does meanwhile
 */
public record Problem(String subject, String reason) {

    /** {@code subject: reason}. */
    @Override
    public String toString() {
        return subject + ": " + reason;
    }
}
