package io.quiver.core.internal.messages;

/**
 * The protocol revisions as Jackson views: a property marked with a revision's view is written for
 * clients of that revision and later ones ({@code writerWithView}), and left out for older ones, so a
 * result is shaped for its client while it is written, in one pass.
 */
public final class Views {

    /** 2024-11-05, the oldest revision spoken. */
    public interface R20241105 {
    }

    /** 2025-03-26: tool annotations, audio content. */
    public interface R20250326 extends R20241105 {
    }

    /** 2025-06-18: titles, output schemas, structured content, resource links. */
    public interface R20250618 extends R20250326 {
    }

    /** 2025-11-25: icons of tools, prompts, resources and templates. */
    public interface R20251125 extends R20250618 {
    }

    /** 2026-07-28, the stateless era. */
    public interface R20260728 extends R20251125 {
    }

    private Views() {
    }

    /** The view of a revision (an unknown one is taken for the newest). */
    public static Class<?> of(String version) {
        if (version == null) {
            return R20260728.class;
        }
        return switch (version) {
            case "2024-11-05" -> R20241105.class;
            case "2025-03-26" -> R20250326.class;
            case "2025-06-18" -> R20250618.class;
            case "2025-11-25" -> R20251125.class;
            default -> R20260728.class;
        };
    }
}
