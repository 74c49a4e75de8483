package io.quiver.core.internal.messages;

import com.fasterxml.jackson.annotation.JsonView;

/** The server's name and version ({@code serverInfo}); a title for 2025-06-18 and later. */
public record Implementation(String name, String version, @JsonView(Views.R20250618.class) String title) {
}
