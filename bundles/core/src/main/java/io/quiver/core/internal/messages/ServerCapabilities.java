package io.quiver.core.internal.messages;

import com.fasterxml.jackson.annotation.JsonView;
import java.util.Map;

/**
 * What the server offers, the same in every revision but completions (2025-03-26 and later); the stateless era's
 * discovery adds the extensions.
 */
public record ServerCapabilities(ListChanges tools, Resources resources, ListChanges prompts,
        Map<String, Object> logging, @JsonView(Views.R20250326.class) Map<String, Object> completions,
        Map<String, Object> extensions) {

    /** A list whose changes are announced. */
    public record ListChanges(boolean listChanged) {
    }

    /** Resources: subscriptions and list changes. */
    public record Resources(boolean subscribe, boolean listChanged) {
    }

    /** Everything Quiver offers, with these extensions (or none). */
    public static ServerCapabilities all(Map<String, Object> extensions) {
        return new ServerCapabilities(new ListChanges(true), new Resources(true, true), new ListChanges(true), Map.of(),
                Map.of(), extensions);
    }
}
