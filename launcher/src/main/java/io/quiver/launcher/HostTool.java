package io.quiver.launcher;

import java.util.Map;

/**
 * A tool the host application provides, in plain Java: it crosses into the framework without the
 * host touching OSGi or Quiver API types (whose classes inside the framework are not the host's).
 * Register it with {@link Quiver.Builder#tool} or {@link Quiver#addTool}; it is then an ordinary
 * tool: listed, validated against its input schema, subject to the call policy, limits, audit and
 * {@code list_changed}, callable by every client.
 */
@FunctionalInterface
public interface HostTool {

    /**
     * Runs one call.
     *
     * @param arguments the arguments, validated against the input schema, as JSON values in Java
     *     (String, Number, Boolean, List, Map, null)
     * @return the text the client gets
     * @throws Failure to answer with an error result the model reads ({@code isError}, the message)
     * @throws Exception any other failure: the client gets a generic error, the message goes to the log
     */
    String call(Map<String, Object> arguments) throws Exception;

    /** A failure the caller should read: answered as an {@code isError} result with this message. */
    final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        public Failure(String message) {
            super(message);
        }
    }
}
