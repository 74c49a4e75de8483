package io.quiver.core.internal.messages;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** The last message of a {@code subscriptions/listen} stream: its result, tagged with the subscription. */
public record ListenEnded(@JsonIgnore JsonNode subscriptionId) implements Result {

    @Override
    public Map<String, Object> meta() {
        return Map.of(Meta.SUBSCRIPTION, subscriptionId);
    }
}
