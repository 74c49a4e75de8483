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
     * @throws Question to ask the user first: the tool runs again with the answer
     * @throws Exception any other failure: the client gets a generic error, the message goes to the log
     */
    String call(Map<String, Object> arguments) throws Exception;

    /**
     * Runs one attempt of a call with the answers to its questions so far; by default {@link #call(Map)}.
     * A tool that asks ({@link Question}) overrides this: each answer is run again from the start, with
     * every answer so far (the attempt before has ended; nothing is resumed).
     *
     * @param answers by question key: {@code action} ({@code accept}, {@code decline}, {@code cancel})
     *     and {@code content} (the form's values when accepted)
     */
    default String call(Map<String, Object> arguments, Map<String, Map<String, Object>> answers) throws Exception {
        return call(arguments);
    }

    /** A failure the caller should read: answered as an {@code isError} result with this message. */
    final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        public Failure(String message) {
            super(message);
        }
    }

    /**
     * A question for the user (a form): the host answers it, or the client does. The tool runs again with
     * the answer under {@code key}.
     */
    final class Question extends Exception {
        private static final long serialVersionUID = 1L;

        private final String key;
        private final String schema;
        private final boolean sensitive;

        /**
         * @param schema the form, a flat JSON Schema object as JSON text
         * @param sensitive the answer is a secret: asked masked, kept out of every log
         */
        public Question(String key, String message, String schema, boolean sensitive) {
            super(message, null, false, false);
            this.key = key;
            this.schema = schema;
            this.sensitive = sensitive;
        }

        public String key() {
            return key;
        }

        public String schema() {
            return schema;
        }

        public boolean sensitive() {
            return sensitive;
        }
    }
}
