package io.quiver.core.internal.messages;

import com.fasterxml.jackson.annotation.JsonView;
import io.quiver.api.content.Icon;
import java.util.List;

/** A fixed resource as {@code resources/list} shows it; titles for clients of 2025-06-18 and later, icons
 * for 2025-11-25 and later. */
public record ResourceDescriptor(String uri, String name, @JsonView(Views.R20250618.class) String title,
        @JsonView(Views.R20251125.class) List<Icon> icons,
        String description, String mimeType) {
}
