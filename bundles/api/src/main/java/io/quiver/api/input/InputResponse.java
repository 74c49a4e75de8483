package io.quiver.api.input;

import io.quiver.api.content.Content;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An answer to an {@link InputRequest}. */
public sealed interface InputResponse {

    /**
     * The user's answer to an elicitation.
     *
     * @param action {@code accept}, {@code decline} or {@code cancel}
     * @param content the submitted values when accepted, else empty
     */
    record Elicited(String action, Map<String, Object> content) implements InputResponse {
        public Elicited {
            content = content == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(content));
        }

        /** Whether the user accepted and submitted the form. */
        public boolean accepted() {
            return "accept".equals(action);
        }
    }

    /** The client model's answer to a sampling request. */
    record Sampled(String role, Content content, String model, String stopReason) implements InputResponse {
    }

    /** The client's roots. */
    record RootList(List<Root> roots) implements InputResponse {
        public RootList {
            roots = List.copyOf(roots);
        }
    }

    /** A root: a {@code file://} URI and an optional name. */
    record Root(String uri, String name) {
    }
}
